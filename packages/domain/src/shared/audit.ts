import type { Actor } from "./actor";

export type AuditEntry = {
  actor: Actor | null;
  action: string;
  targetType: string;
  targetId: string;
  details?: Record<string, unknown>;
};

/** Appends audit events; called with the transaction's repositories so the entry commits with the change. */
export interface AuditLog {
  record(entry: AuditEntry, at: Date): Promise<void>;
}
