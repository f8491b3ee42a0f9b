import type { ChatFanOut, ChatSignalListener } from "@agora/domain/chat/chat.ports";
import type { PGlite } from "@electric-sql/pglite";
import type { Database } from "./client";
import { type ListenerOptions, listenOnPostgres } from "./pg-listener";
import { CHAT_CHANNEL, decodeChatSignal } from "./repositories/chat/chat-signals";

export type FanOutOptions = ListenerOptions;

/**
 * PostgreSQL LISTEN on a dedicated connection (`listenOnPostgres`); after a reconnect subscribers
 * `resync`, reloading whatever was committed while nobody listened.
 */
const createPostgresFanOut = (url: string, options: FanOutOptions): ChatFanOut => {
  let listener: ChatSignalListener | undefined;
  let reconnects = 0;
  const connection = listenOnPostgres(url, {
    ...options,
    channel: CHAT_CHANNEL,
    applicationName: "agora-chat-listener",
    onNotification: (payload) => {
      const signal = decodeChatSignal(payload);
      if (signal) {
        listener?.signal(signal);
      }
    },
    onReconnect: () => {
      reconnects += 1;
      listener?.resync();
    },
  });

  return {
    async start(next) {
      listener = next;
      await connection.start();
    },
    close: () => connection.close(),
    state: () => ({ connected: connection.connected, reconnects }),
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
    // In-process: connected from start to close, never lost.
    state: () => ({ connected: unsubscribe !== undefined, reconnects: 0 }),
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
