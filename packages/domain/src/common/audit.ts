import type { Actor } from "./actor";

/**
 * One audited decision: who (null: an operator at the command line), what, on which target, the
 * fields it changed (`before` and `after` hold the same keys), and anything else worth keeping.
 * The request id comes from the actor.
 */
export type AuditEntry = {
  actor: Actor | null;
  action: string;
  targetType: string;
  targetId: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  details?: Record<string, unknown>;
};

/** Appends audit events; called with the transaction's repositories so the entry commits with the change. */
export interface AuditLog {
  record(entry: AuditEntry, at: Date): Promise<void>;
}
