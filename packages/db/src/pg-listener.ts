import pg from "pg";

export type ListenerOptions = {
  /** Reported, never thrown: a lost or refused listener connection (it is retried). */
  onError?: (error: unknown) => void;
  /** First retry delay after the connection is lost; doubles up to `maxReconnectMs`. */
  reconnectMs?: number;
  maxReconnectMs?: number;
};

/**
 * PostgreSQL LISTEN on `channel`, on a dedicated `pg.Client` outside the pool: a pooled connection
 * is handed to other work between queries, and LISTEN belongs to one session for as long as it
 * lasts (which is also why this cannot go through PgBouncer in transaction pooling mode). The
 * client has an error listener (an idle connection that dies must not crash the process); when the
 * connection is lost (a database restart, a network cut) it reconnects with backoff, LISTENs again
 * and calls `onReconnect`, since whatever was notified meanwhile was not heard.
 */
export const listenOnPostgres = (
  url: string,
  {
    channel,
    applicationName,
    onNotification,
    onReconnect,
    ...options
  }: ListenerOptions & {
    channel: string;
    applicationName: string;
    onNotification: (payload: string | undefined) => void;
    onReconnect: () => void;
  },
) => {
  const firstDelay = options.reconnectMs ?? 250;
  const maxDelay = options.maxReconnectMs ?? 5_000;
  let current: pg.Client | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let delay = firstDelay;

  const connect = async (): Promise<void> => {
    const client = new pg.Client({
      connectionString: url,
      application_name: applicationName,
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
      if (notification.channel === channel) {
        onNotification(notification.payload);
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
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
        onReconnect();
      } catch (error) {
        options.onError?.(error);
        delay = Math.min(delay * 2, maxDelay);
        retry();
      }
    }, delay);
    timer.unref();
  };

  return {
    /** Whether the LISTEN session is up now (false while it is lost and being retried). */
    get connected() {
      return current !== undefined;
    },
    async start() {
      try {
        await connect();
      } catch (error) {
        // The database may be restarting: keep trying rather than fail the process.
        options.onError?.(error);
        retry();
      }
    },
    /** Runs a statement on the listening session; rejects while it is not connected. */
    async query(text: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
      if (!current) {
        throw new Error("the listener is not connected");
      }

      return (await current.query(text, values)).rows;
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
