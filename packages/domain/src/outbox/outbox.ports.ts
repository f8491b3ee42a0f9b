import type { NewOutboxEvent, OutboxEvent } from "./outbox.types";

/**
 * Appends an event to the outbox. Use cases call it with the repositories of their unit of work,
 * so the event commits (or rolls back) with the change that caused it. Resolves the event's id.
 */
export interface OutboxWriter {
  append(event: NewOutboxEvent, at: Date): Promise<string>;
}

/** Which kinds a claim takes: only those named, or every kind but those named. */
export type OutboxKindFilter = { only: readonly string[] } | { except: readonly string[] };

/** The worker's side of the outbox; each method is one statement on the pool (no transaction). */
export interface OutboxStore {
  /**
   * Claims up to `limit` pending events due by `now`, oldest first, and leases them until
   * `leaseUntil` (their `available_at` moves there): a worker that dies mid-batch leaves them to
   * be claimed again after the lease. Rows another worker is claiming are skipped, not waited for.
   */
  claim(
    now: Date,
    leaseUntil: Date,
    limit: number,
    /**
     * The previous batch's delivered events: marked processed (as `markProcessed` would) by the
     * same statement, before the claim, and never claimed by it.
     */
    processed?: { ids: readonly string[]; at: Date },
    /** Only events of these kinds, or all but these (every kind when absent). */
    kinds?: OutboxKindFilter,
  ): Promise<OutboxEvent[]>;
  /** Marks delivered events processed in one statement; returns how many were still pending. */
  markProcessed(ids: readonly string[], at: Date): Promise<number>;
  /**
   * Records a failed delivery: the new failure count, the error line, and when to try again.
   * Applies only while the event is pending with `previousAttempts` failures (false otherwise).
   */
  recordFailure(
    id: string,
    failure: { previousAttempts: number; attempts: number; error: string; retryAt: Date },
  ): Promise<boolean>;
  /** Dead-letters the event: kept, never claimed again until re-driven. */
  markDead(
    id: string,
    failure: { previousAttempts: number; attempts: number; error: string; at: Date },
  ): Promise<boolean>;
  /**
   * Re-drives dead-lettered events (all, or the one with `eventId`; a malformed id names none):
   * dead_at cleared, attempts reset, due at `at`. Resolves how many.
   */
  redrive(at: Date, eventId?: string): Promise<number>;
}

/**
 * How an idle outbox loop waits: until `ms` pass, `signal` aborts, or events are written
 * (PostgreSQL LISTEN/NOTIFY), whichever comes first. Best effort: a notification lost (listener
 * reconnecting, a pooler that cannot LISTEN) only means the wait runs its course.
 */
export interface OutboxWakeup {
  wait(ms: number, signal: AbortSignal): Promise<void>;
}
