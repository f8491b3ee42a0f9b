import type { SessionActivity } from "@agora/domain/identity/identity.ports";
import type { SqlExecutor } from "../../sql";

export type SessionActivityRecorder = SessionActivity & {
  /** Writes the held times now, in one statement. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is held. */
  close(): Promise<void>;
};

export type SessionActivityOptions = {
  /** How often the held times are written (default 60 s: `last_used_at` is kept to the minute). */
  flushIntervalMs?: number;
  /** Sessions held at once before a write starts early (memory bound; default 10,000). */
  maxHeldSessions?: number;
  /** A write that failed: its times stay held and go with the next one. */
  onError?: (error: unknown) => void;
};

/**
 * One statement writes every held time; it never moves a session's time back (another process may
 * have written a later one), and rows go in id order (no lock cycles between processes).
 */
const FLUSH_SQL = `UPDATE sessions s SET last_used_at = used.at
  FROM (SELECT id, at FROM unnest($1::uuid[], $2::timestamptz[]) AS held(id, at) ORDER BY id) AS used
 WHERE s.id = used.id AND (s.last_used_at IS NULL OR s.last_used_at < used.at)`;

/**
 * The last use of each session, held in the process and written to `sessions.last_used_at` once a
 * `flushIntervalMs` in one statement, so the per-request session check stays one read (issue: "do
 * not add a write per request"; docs/accounts.md, "Your sessions"). A crash loses at most one
 * interval of times, which only makes a session's last use look older.
 */
export const createSessionActivity = (
  db: SqlExecutor,
  options: SessionActivityOptions = {},
): SessionActivityRecorder => {
  const flushIntervalMs = options.flushIntervalMs ?? 60_000;
  const maxHeldSessions = options.maxHeldSessions ?? 10_000;
  let held = new Map<string, Date>();
  let writing: Promise<void> | undefined;
  // When a write last failed (ms): no early write within an interval of it, so a database that is
  // down is tried once per interval, not once per request.
  let failedAt = Number.NEGATIVE_INFINITY;

  const write = async (): Promise<void> => {
    if (held.size === 0) {
      return;
    }
    const batch = held;
    held = new Map();
    try {
      await db.query(FLUSH_SQL, [[...batch.keys()], [...batch.values()]], "sessions_record_use");
    } catch (error) {
      // Kept for the next write, unless a later use of the session replaced it meanwhile.
      for (const [id, at] of batch) {
        const later = held.get(id);
        if (!later || later < at) {
          held.set(id, at);
        }
      }
      failedAt = Date.now();
      options.onError?.(error);
    }
  };

  const flush = (): Promise<void> => {
    writing = (writing ?? Promise.resolve()).then(write);

    return writing;
  };

  const timer = setInterval(() => {
    void flush();
  }, flushIntervalMs);
  timer.unref();

  return {
    seen(sessionId, at) {
      const known = held.get(sessionId);
      if (known && known >= at) {
        return;
      }
      held.set(sessionId, at);
      if (held.size >= maxHeldSessions && Date.now() - failedAt >= flushIntervalMs) {
        void flush();
      }
    },
    heldFor(sessionId) {
      return held.get(sessionId);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
};
