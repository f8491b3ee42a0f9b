import type { OutboxWakeup } from "@agora/domain/outbox/outbox.ports";
import type { Database } from "./client";
import { type ListenerOptions, listenOnPostgres } from "./pg-listener";

/** The channel the outbox_events insert trigger notifies (migration 20261130170000_outbox_wakeup). */
const OUTBOX_CHANNEL = "agora_outbox";
/** Held exclusively by the session of a waiting worker; writers notify only while it is held. */
export const OUTBOX_WAITING_LOCK = 72_616_702;

type OutboxWakeupSource = OutboxWakeup & {
  start(): Promise<void>;
  close(): Promise<void>;
};

const sleepUnless = (ms: number, signal: AbortSignal, onWake: (wake: () => void) => () => void) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) {
      resolve();

      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      stopListening();
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    const stopListening = onWake(done);
  });

/**
 * Wakes this process's idle outbox loops when events are written (PostgreSQL). A dedicated session
 * on `listenTarget` (DATABASE_LISTEN_URL, as chat's: a transaction pooler cannot LISTEN) LISTENs on
 * OUTBOX_CHANNEL and, while any loop of the process waits, holds OUTBOX_WAITING_LOCK, which is what
 * makes writers notify (see the migration); a loop that wakes releases it once no loop waits. One
 * process holds the lock at a time, so with several idle workers one is woken and the others poll.
 * The lock and the LISTEN end with the session, so a dead worker leaves neither behind. A lost
 * connection is reconnected with backoff (waiting loops wake then); meanwhile loops poll.
 *
 * PGlite has one session, whose own lock never stops its writers' shared try: there the outbox
 * polls (`openOutboxWakeup` answers undefined).
 */
export const openOutboxWakeup = (
  database: Database,
  options: ListenerOptions = {},
): OutboxWakeupSource | undefined => {
  const target = database.listenTarget;
  if (target.kind !== "postgres") {
    return undefined;
  }
  const wakers = new Set<() => void>();
  const ring = () => {
    for (const wake of [...wakers]) {
      wake();
    }
  };
  const connection = listenOnPostgres(target.url, {
    ...options,
    channel: OUTBOX_CHANNEL,
    applicationName: "agora-outbox-listener",
    onNotification: ring,
    onReconnect: ring,
  });
  let waiting = 0;
  let held = false;
  // Lock and unlock run in order on the one session.
  let session: Promise<void> = Promise.resolve();
  const onSession = (work: () => Promise<void>) => {
    session = session.then(work).catch(() => {
      // Not connected, or the connection broke (the listener reports that itself): the lock
      // went with the session, and until it is back this process polls.
      held = false;
    });
  };

  return {
    async wait(ms, signal) {
      waiting += 1;
      if (waiting === 1) {
        onSession(async () => {
          if (waiting > 0 && !held) {
            const rows = await connection.query("SELECT pg_try_advisory_lock($1) AS locked", [
              OUTBOX_WAITING_LOCK,
            ]);
            held = rows[0]?.locked === true;
          }
        });
      }
      try {
        await sleepUnless(ms, signal, (wake) => {
          wakers.add(wake);

          return () => wakers.delete(wake);
        });
      } finally {
        waiting -= 1;
        if (waiting === 0) {
          onSession(async () => {
            if (waiting === 0 && held) {
              held = false;
              await connection.query("SELECT pg_advisory_unlock($1)", [OUTBOX_WAITING_LOCK]);
            }
          });
        }
      }
    },
    start: () => connection.start(),
    async close() {
      ring();
      await session;
      await connection.close();
    },
  };
};
