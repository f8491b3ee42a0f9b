import type { ChatFanOut, ChatSignalListener } from "@agora/domain/chat/chat.ports";
import type { NatsConnection, Subscription } from "@nats-io/transport-node";
import { type ChatSignalSink, decodeChatSignal } from "./repositories/chat/chat-signals";

export type NatsBrokerOptions = {
  /** The NATS servers (NATS_URL: one URL, or several comma-separated). */
  url: string;
  /** The subject every API process of one deployment publishes and subscribes to (NATS_SUBJECT). */
  subject: string;
  /** The connection's name, as the NATS server's monitoring shows it. */
  name?: string;
  /** Reported, never thrown: a publish that failed, a lost connection (it is retried). */
  onError?: (error: unknown) => void;
  /** Delay between reconnect attempts (default 250 ms; the client adds jitter). */
  reconnectMs?: number;
};

/** The chat fan-out through NATS core pub/sub (REALTIME_FANOUT=nats; docs/decisions/realtime-fan-out.md). */
export type NatsChatBroker = {
  /** Where the repositories hand committed signals (one NATS message each, published at once). */
  sink: ChatSignalSink;
  /** A fan-out that subscribes on the process's connection; `onError` hears the feed's interruptions. */
  openFanOut(onError?: (error: unknown) => void): ChatFanOut;
  /** Flushes what was published and closes the connection (after the last request was answered). */
  close(): Promise<void>;
};

/**
 * NATS core pub/sub: at most once, no persistence, which is all the fan-out needs, since a signal only
 * says "reload from where you are" and receivers read the committed rows themselves. One connection
 * per process carries both the publishes and the subscription. The client library is loaded on the
 * first use (a process on the default PostgreSQL fan-out never loads it).
 *
 * What a signal can be lost to, and what brings the change anyway:
 * - this connection drops: the client reconnects (forever, every `reconnectMs`) and buffers what is
 *   published meanwhile (up to its reconnect buffer, 8 MiB); subscribers `resync` once it is back,
 *   as after a LISTEN reconnect, since whatever others published meanwhile was not heard;
 * - the process dies between a commit and its publish (a window of one event-loop turn): that
 *   signal is never sent. The conversation's next signal catches every socket up (each reloads
 *   after its cursor), and a client that reconnects reloads after its last seq (the route's `after=<seq>`, in its OpenAPI description).
 */
export const openNatsChatBroker = (options: NatsBrokerOptions): NatsChatBroker => {
  const report = (error: unknown) => options.onError?.(error);
  let connection: NatsConnection | undefined;
  let connecting: Promise<NatsConnection> | undefined;
  let closed = false;
  // The connection's state as its status events tell it (the client reconnects on its own).
  let online = false;
  let reconnects = 0;
  const listeners = new Set<ChatSignalListener>();

  const watch = async (nc: NatsConnection) => {
    for await (const status of nc.status()) {
      if (status.type === "disconnect") {
        online = false;
        report(new Error("realtime broker connection lost; reconnecting"));
      } else if (status.type === "reconnect") {
        online = true;
        reconnects += 1;
        for (const listener of listeners) {
          listener.resync();
        }
      } else if (status.type === "close") {
        online = false;
      }
    }
  };

  const connect = (): Promise<NatsConnection> => {
    connecting ??= import("@nats-io/transport-node")
      .then(({ connect: open }) =>
        open({
          servers: options.url.split(",").map((server) => server.trim()),
          name: options.name ?? "agora-api",
          maxReconnectAttempts: -1,
          reconnectTimeWait: options.reconnectMs ?? 250,
        }),
      )
      .then((nc) => {
        connection = nc;
        online = !nc.isClosed();
        watch(nc).catch(report);

        return nc;
      })
      .catch((error: unknown) => {
        // The next use tries again.
        connecting = undefined;
        throw error;
      });

    return connecting;
  };

  const publishOn = (nc: NatsConnection, payloads: readonly string[]) => {
    for (const payload of payloads) {
      try {
        nc.publish(options.subject, payload);
      } catch (error) {
        report(error);
      }
    }
  };

  return {
    sink: {
      publish(payloads) {
        if (closed) {
          return;
        }
        if (connection) {
          publishOn(connection, payloads);

          return;
        }
        connect().then((nc) => publishOn(nc, payloads), report);
      },
    },

    openFanOut(onError) {
      let subscription: Subscription | undefined;
      let listener: ChatSignalListener | undefined;

      return {
        async start(next) {
          listener = next;
          const nc = await connect();
          subscription = nc.subscribe(options.subject, {
            callback: (error, message) => {
              if (error) {
                onError?.(error);

                return;
              }
              const signal = decodeChatSignal(message.string());
              if (signal) {
                next.signal(signal);
              }
            },
          });
          // Signals flow once the server has the subscription.
          await nc.flush();
          listeners.add(next);
        },
        async close() {
          if (listener) {
            listeners.delete(listener);
          }
          subscription?.unsubscribe();
          subscription = undefined;
        },
        // The subscription hears signals only while the process's connection is up.
        state: () => ({ connected: subscription !== undefined && online, reconnects }),
      };
    },

    async close() {
      closed = true;
      online = false;
      const nc = connection ?? (await connecting?.catch(() => undefined));
      if (nc && !nc.isClosed()) {
        await nc.drain().catch(report);
      }
    },
  };
};
