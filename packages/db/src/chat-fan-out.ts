import type { ChatFanOut, ChatSignalListener } from "@agora/domain/chat/chat.ports";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { Database } from "./client";
import { CHAT_CHANNEL, decodeChatSignal } from "./repositories/chat/chat-signals";

export type FanOutOptions = {
  /** Reported, never thrown: a lost or refused listener connection (it is retried). */
  onError?: (error: unknown) => void;
  /** First retry delay after the connection is lost; doubles up to `maxReconnectMs`. */
  reconnectMs?: number;
  maxReconnectMs?: number;
};

/**
 * PostgreSQL LISTEN on a dedicated `pg.Client`, outside the pool: a pooled connection is handed to
 * other work between queries, and LISTEN belongs to one session for as long as it lasts (which is
 * also why this cannot go through PgBouncer in transaction pooling mode). The client has an error
 * listener (an idle connection that dies must not crash the process); when the connection is lost
 * (a database restart, a network cut) it reconnects with backoff, LISTENs again and calls
 * `resync`, so subscribers reload whatever was committed while nobody listened.
 */
const createPostgresFanOut = (url: string, options: FanOutOptions): ChatFanOut => {
  const firstDelay = options.reconnectMs ?? 250;
  const maxDelay = options.maxReconnectMs ?? 5_000;
  let listener: ChatSignalListener | undefined;
  let current: pg.Client | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let delay = firstDelay;

  const connect = async (): Promise<void> => {
    const client = new pg.Client({
      connectionString: url,
      application_name: "agora-chat-listener",
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    let live = false;
    const lost = (error?: unknown) => {
      if (error !== undefined) {
        options.onError?.(error);
      }
      if (!live) {
        return;
      }
      live = false;
      if (current === client) {
        current = undefined;
      }
      client.end().catch(() => {});
      retry();
    };
    client.on("error", lost);
    client.on("end", () => lost());
    client.on("notification", (notification) => {
      if (notification.channel !== CHAT_CHANNEL) {
        return;
      }
      const signal = decodeChatSignal(notification.payload);
      if (signal) {
        listener?.signal(signal);
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHAT_CHANNEL}`);
    } catch (error) {
      client.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await client.end().catch(() => {});

      return;
    }
    live = true;
    current = client;
  };

  const retry = () => {
    if (closed || timer) {
      return;
    }
    timer = setTimeout(async () => {
      timer = undefined;
      try {
        await connect();
        delay = firstDelay;
        // Whatever committed while nobody listened was not heard: subscribers reload.
        listener?.resync();
      } catch (error) {
        options.onError?.(error);
        delay = Math.min(delay * 2, maxDelay);
        retry();
      }
    }, delay);
    timer.unref();
  };

  return {
    async start(next) {
      listener = next;
      try {
        await connect();
      } catch (error) {
        // The database may be restarting: keep trying rather than fail the process.
        options.onError?.(error);
        retry();
      }
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      const client = current;
      current = undefined;
      await client?.end().catch(() => {});
    },
  };
};

/**
 * PGlite is one process's database, so its notifications never leave the process: the adapter
 * subscribes in-process. Writers run the same statements (pg_notify) as on PostgreSQL, and PGlite
 * delivers a notification only when its transaction commits, like the server does.
 */
const createPgliteFanOut = (db: PGlite): ChatFanOut => {
  let unsubscribe: (() => Promise<void>) | undefined;

  return {
    async start(listener) {
      unsubscribe = await db.listen(CHAT_CHANNEL, (payload) => {
        const signal = decodeChatSignal(payload);
        if (signal) {
          listener.signal(signal);
        }
      });
    },
    async close() {
      await unsubscribe?.().catch(() => {});
      unsubscribe = undefined;
    },
  };
};

/** The chat fan-out of `database`: LISTEN/NOTIFY on PostgreSQL, in-process on PGlite. */
export const openChatFanOut = (database: Database, options: FanOutOptions = {}): ChatFanOut =>
  database.listenTarget.kind === "postgres"
    ? createPostgresFanOut(database.listenTarget.url, options)
    : createPgliteFanOut(database.listenTarget.db);
