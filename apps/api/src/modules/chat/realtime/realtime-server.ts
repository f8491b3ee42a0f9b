import type { IncomingMessage, Server } from "node:http";
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import {
  clientFrameSchema,
  realtimeCloseCodes,
  realtimeErrorCodes,
  realtimeFrameTypes,
  realtimeLimits,
  realtimeProtocols,
  type ServerFrame,
} from "@agora/contracts/realtime";
import { presenceTimings, typingAccepted } from "@agora/domain/chat/chat.policy";
import type {
  ChatConnectionRepository,
  ChatFanOut,
  ConversationRepository,
  MessageRepository,
} from "@agora/domain/chat/chat.ports";
import { viewMessage } from "@agora/domain/chat/message-views";
import type { ChannelGrant } from "@agora/domain/chat/open-channel";
import { RateLimitedError } from "@agora/domain/common/app-error";
import type { Clock } from "@agora/domain/common/clock";
import type { IdGenerator } from "@agora/domain/common/ids";
import type { SessionRepository } from "@agora/domain/identity/identity.ports";
import type { ObjectStore } from "@agora/domain/media/media.ports";
import type { RealtimeSocketLimits } from "@agora/process/config";
import type { Logger } from "pino";
import type { WebSocket, WebSocketServer } from "ws";
import type { UpgradeSlot } from "../../../http/app-env";
import type { RequestHandler } from "../../../http/handler";
import type { RealtimeRefusal } from "../../../http/metrics";
import { type ChannelClient, createChannelHub } from "./channel-hub";
import { createSocketCaps, type SocketPlace } from "./socket-caps";

/** How often the sessions behind open sockets are checked (logout, suspension, deletion). */
const SESSION_CHECK_MS = 2_000;

/** A socket whose unsent frames exceed this is too slow to keep: it is closed (1013). */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** The Retry-After of an upgrade refused past a socket cap (a place frees when a socket closes). */
const CAP_RETRY_AFTER_SECONDS = 30;

/** What the realtime server needs from the composition root. */
export type RealtimeDeps = {
  /** A new fan-out subscription (LISTEN connection, or PGlite in-process); closed with the server. */
  openFanOut(onError: (error: unknown) => void): ChatFanOut;
  connections: ChatConnectionRepository;
  sessions: Pick<SessionRepository, "filterActive">;
  /** SESSION_MAX_AGE_SECONDS: a socket's session ends at this age too (sessionLive). */
  sessionMaxAgeSeconds: number;
  messages: Pick<MessageRepository, "listPage">;
  conversations: Pick<ConversationRepository, "findReadMarkers">;
  /** Signs the read URLs of the messages' media. */
  objects: ObjectStore;
  clock: Clock;
  ids: IdGenerator;
  /** The socket caps (REALTIME_SOCKETS_*, REALTIME_MAX_SOCKETS). */
  limits: RealtimeSocketLimits;
  /** An upgrade refused past a cap (counted on /metrics). */
  refused(reason: RealtimeRefusal): void;
  /** PRESENCE_TIMEOUT_SECONDS in ms: the longest a user whose process died still shows online. */
  presenceTimeoutMs: number;
};

export type RealtimeOptions = { pingIntervalMs?: number; sessionCheckMs?: number };

export type RealtimeServer = {
  /** How many sockets are open in this process. */
  readonly size: number;
  /** Closes every socket with 1001, stops listening for changes and forgets this process's presence. */
  close(): Promise<void>;
};

const pong = JSON.stringify({ type: realtimeFrameTypes.pong } satisfies ServerFrame);
const unsupportedFrame = JSON.stringify({
  type: realtimeFrameTypes.error,
  data: {
    code: realtimeErrorCodes.unsupportedFrame,
    message:
      'Only {"type":"ping"} and {"type":"typing"} are understood; the frame was ignored. Send messages with POST …/messages.',
  },
} satisfies ServerFrame);

/**
 * The subprotocols offered, and the access token of a `bearer.<token>` offered beside
 * `agora.v1` (a browser cannot send `Authorization`).
 */
const offeredProtocols = (header: string | undefined) => {
  const offered = (header ?? "")
    .split(",")
    .map((protocol) => protocol.trim())
    .filter(Boolean);
  const carrier = offered.find((protocol) => protocol.startsWith(realtimeProtocols.bearerPrefix));
  const token =
    carrier && offered.includes(realtimeProtocols.channel)
      ? carrier.slice(realtimeProtocols.bearerPrefix.length)
      : undefined;

  return {
    token: token || undefined,
    /** The offer without any token, as the handler sees it. */
    rest: offered.filter((protocol) => !protocol.startsWith(realtimeProtocols.bearerPrefix)),
  };
};

/**
 * The request the upgrade carries, for the same handler every HTTP request goes through. A token
 * offered as a subprotocol becomes `Authorization: Bearer` (unless that header is sent: it wins)
 * and leaves the protocol header, so the route checks it like any bearer token and nothing
 * downstream (logs, traces, errors) sees it anywhere else.
 */
const toRequest = (incoming: IncomingMessage): Request => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (name === "sec-websocket-protocol") {
      const { token, rest } = offeredProtocols(Array.isArray(value) ? value.join(",") : value);
      if (rest.length > 0) {
        headers.set(name, rest.join(", "));
      }
      if (token && incoming.headers.authorization === undefined) {
        headers.set("authorization", `Bearer ${token}`);
      }
    } else if (Array.isArray(value)) {
      for (const item of value) {
        headers.append(name, item);
      }
    } else if (value !== undefined) {
      headers.set(name, value);
    }
  }

  return new Request(new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "localhost"}`), {
    method: incoming.method ?? "GET",
    headers,
  });
};

/** Writes a refusal as a plain HTTP response (status, headers, envelope) and closes the connection. */
const refuse = async (socket: Duplex, response: Response): Promise<void> => {
  const body = Buffer.from(await response.arrayBuffer());
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}`];
  response.headers.forEach((value, name) => {
    if (!["content-length", "connection", "transfer-encoding"].includes(name)) {
      lines.push(`${name}: ${value}`);
    }
  });
  lines.push(`content-length: ${body.length}`, "connection: close", "", "");
  socket.end(Buffer.concat([Buffer.from(lines.join("\r\n"), "latin1"), body]));
};

/**
 * The realtime channel on a node HTTP server: upgrade requests go through the same handler as every
 * request (request id, access log, the route's checks: bearer token, participation, Origin), and
 * only a request the route admitted is upgraded (`ws`, maxPayload 1 KiB). Changes committed by any
 * process arrive through the fan-out and are pushed by the channel hub.
 */
export const startRealtime = async (
  server: Server,
  handler: RequestHandler,
  { deps, logger, options = {} }: { deps: RealtimeDeps; logger: Logger; options?: RealtimeOptions },
): Promise<RealtimeServer> => {
  const log = logger.child({ component: "realtime" });
  const instanceId = deps.ids.next();
  // `ws` is loaded at the first upgrade: a process nobody opens a channel on never loads it.
  let wss: Promise<WebSocketServer> | undefined;
  const webSocketServer = () => {
    wss ??= import("ws").then(
      ({ WebSocketServer }) =>
        new WebSocketServer({
          noServer: true,
          maxPayload: realtimeLimits.maxFrameBytes,
          clientTracking: false,
          // `agora.v1` when offered, never another: ws's default would echo the first offer, which
          // may be `bearer.<token>`.
          handleProtocols: (offered) =>
            offered.has(realtimeProtocols.channel) ? realtimeProtocols.channel : false,
        }),
      (error: unknown) => {
        // Not kept: that upgrade fails (logged, socket closed) and the next one tries again.
        wss = undefined;
        throw error;
      },
    );

    return wss;
  };
  const sockets = new Map<
    ChannelClient,
    { ws: WebSocket; alive: boolean; added: Promise<void>; typedAt?: number }
  >();
  const presence = presenceTimings(deps.presenceTimeoutMs);
  const hub = createChannelHub({
    messages: deps.messages,
    viewMessage: (message, viewerId) => viewMessage(deps.objects, message, deps.clock.now(), viewerId),
    conversations: deps.conversations,
    connections: deps.connections,
    staleAfterMs: presence.staleAfterMs,
    onError: (error) => log.warn({ err: error }, "realtime: loading messages failed; retrying"),
  });
  const fanOut = deps.openFanOut((error) => log.warn({ err: error }, "realtime: change feed interrupted"));
  await fanOut.start({
    signal: (signal) => hub.signal(signal),
    resync: () => {
      log.info("realtime: change feed back; catching up every open conversation");
      hub.resync().catch((error: unknown) => log.warn({ err: error }, "realtime: resync failed"));
    },
  });
  let closing = false;
  const caps = createSocketCaps(deps.limits);

  const open = (ws: WebSocket, grant: ChannelGrant, place: SocketPlace) => {
    const now = deps.clock.now();
    const client: ChannelClient = {
      id: deps.ids.next(),
      grant,
      cursor: grant.afterSeq,
      reads: new Map(),
      send(text) {
        if (ws.readyState !== ws.OPEN) {
          return;
        }
        if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
          ws.close(realtimeCloseCodes.tooSlow, "too slow: reconnect with after=<last seq>");

          return;
        }
        ws.send(text);
      },
    };
    const added = deps.connections
      .add({ id: client.id, instanceId, conversationId: grant.conversationId, userId: grant.userId, at: now })
      .catch((error: unknown) => log.warn({ err: error }, "realtime: presence row not written"));
    const state: { ws: WebSocket; alive: boolean; added: Promise<void>; typedAt?: number } = {
      ws,
      alive: true,
      added,
    };
    sockets.set(client, state);
    ws.on("pong", () => {
      state.alive = true;
    });
    ws.on("message", (data, isBinary) => {
      if (isBinary) {
        ws.close(realtimeCloseCodes.binaryFrame, "binary frames are not supported");

        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(data));
      } catch {
        parsed = undefined;
      }
      const incoming = clientFrameSchema.safeParse(parsed);
      if (!incoming.success) {
        client.send(unsupportedFrame);

        return;
      }
      if (incoming.data.type === realtimeFrameTypes.ping) {
        client.send(pong);

        return;
      }
      // Typing: one per interval per socket is passed on; the others are dropped without an answer.
      const at = deps.clock.now().getTime();
      if (!typingAccepted(state.typedAt, at, realtimeLimits.typingIntervalMs)) {
        return;
      }
      state.typedAt = at;
      deps.connections
        .signalTyping(grant.conversationId, grant.userId, grant.peerId)
        .catch((error: unknown) => log.warn({ err: error }, "realtime: typing not signalled"));
    });
    // Protocol errors (a frame over maxPayload: ws closes with realtimeCloseCodes.frameTooLarge; a bad
    // frame) are followed by close; nothing to add.
    ws.on("error", () => {});
    ws.on("close", () => {
      place.release();
      sockets.delete(client);
      hub.remove(client);
      // After the row's last write (its insert, or a re-insert by the presence refresh).
      void state.added.then(() =>
        deps.connections
          .remove(client.id)
          .catch((error: unknown) => log.warn({ err: error }, "realtime: presence row not removed")),
      );
    });
    hub.add(client);
  };

  const onUpgrade = (incoming: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    void (async () => {
      let admitted: { grant: ChannelGrant; place: SocketPlace } | undefined;
      const slot: UpgradeSlot = {
        admit(grant) {
          const place = caps.take(grant);
          if (typeof place === "string") {
            deps.refused(place);
            throw new RateLimitedError(
              CAP_RETRY_AFTER_SECONDS,
              place === "conversation"
                ? "Too many realtime sockets of this session on this conversation; close one first."
                : `Too many realtime sockets of this ${place}; close one first.`,
            );
          }
          admitted = { grant, place };
        },
      };
      try {
        const response = await handler(toRequest(incoming), { incoming, upgrade: slot });
        if (!admitted || closing) {
          admitted?.place.release();
          await refuse(socket, response);

          return;
        }
        const { grant, place } = admitted;
        const upgrader = await webSocketServer();
        if (closing) {
          place.release();
          await refuse(socket, response);

          return;
        }
        if (caps.overfull) {
          // The process holds its most sockets: the upgrade completes and closes at once with 1013,
          // which a WebSocket client sees (a refused upgrade is only a failed connection to it).
          place.release();
          deps.refused("process");
          upgrader.handleUpgrade(incoming, socket, head, (ws) => {
            ws.on("error", () => {});
            ws.close(realtimeCloseCodes.tooSlow, "server full: try again later");
          });

          return;
        }
        let opened = false;
        upgrader.handleUpgrade(incoming, socket, head, (ws) => {
          opened = true;
          open(ws, grant, place);
        });
        // Without verifyClient ws upgrades synchronously; not opened: it answered the handshake
        // itself (a bad Sec-WebSocket-Key or protocol offer) or the connection was gone.
        if (!opened) {
          place.release();
        }
      } catch (error) {
        admitted?.place.release();
        log.error({ err: error }, "realtime: upgrade failed");
        socket.destroy();
      }
    })();
  };
  server.on("upgrade", onUpgrade);

  // Keepalive: a socket that did not answer the previous ping is cut.
  const heartbeat = setInterval(() => {
    for (const state of sockets.values()) {
      if (!state.alive) {
        state.ws.terminate();
        continue;
      }
      state.alive = false;
      state.ws.ping();
    }
  }, options.pingIntervalMs ?? realtimeLimits.pingIntervalMs);
  heartbeat.unref();

  // Presence: this process's rows are refreshed, and rows a dead process left are swept (which
  // signals their users' presence), every quarter of the presence timeout (presenceTimings).
  let refreshing = false;
  const presenceRefresh = setInterval(async () => {
    if (refreshing) {
      return;
    }
    refreshing = true;
    try {
      const touched = new Set(await deps.connections.touchInstance(instanceId));
      for (const [client, state] of sockets) {
        if (touched.has(client.id)) {
          continue;
        }
        // Not refreshed: its insert is still running, or another process swept the row while this
        // one could not refresh it (a database outage longer than the window). Written again.
        state.added = state.added.then(() =>
          sockets.has(client)
            ? deps.connections
                .add({
                  id: client.id,
                  instanceId,
                  conversationId: client.grant.conversationId,
                  userId: client.grant.userId,
                  at: deps.clock.now(),
                })
                .catch((error: unknown) => log.warn({ err: error }, "realtime: presence row not written"))
            : undefined,
        );
      }
      await deps.connections.sweepStale(presence.staleAfterMs);
    } catch (error) {
      log.warn({ err: error }, "realtime: presence not refreshed");
    } finally {
      refreshing = false;
    }
  }, presence.refreshMs);
  presenceRefresh.unref();

  // Sockets of a session that ended (logout, suspension, deletion, its absolute lifetime) close
  // within seconds.
  let checking = false;
  const sessionCheck = setInterval(async () => {
    if (checking || sockets.size === 0) {
      return;
    }
    checking = true;
    try {
      // Only the sockets asked about: one that opened while the query ran is checked next time.
      const checked = [...sockets];
      const sessionIds = [...new Set(checked.map(([client]) => client.grant.sessionId))];
      const live = new Set(
        await deps.sessions.filterActive(sessionIds, deps.clock.now(), deps.sessionMaxAgeSeconds),
      );
      for (const [client, state] of checked) {
        if (!live.has(client.grant.sessionId)) {
          state.ws.close(realtimeCloseCodes.sessionEnded, "session ended");
        }
      }
    } catch (error) {
      log.warn({ err: error }, "realtime: session check failed");
    } finally {
      checking = false;
    }
  }, options.sessionCheckMs ?? SESSION_CHECK_MS);
  sessionCheck.unref();

  return {
    get size() {
      return sockets.size;
    },
    async close() {
      if (closing) {
        return;
      }
      closing = true;
      server.off("upgrade", onUpgrade);
      clearInterval(heartbeat);
      clearInterval(presenceRefresh);
      clearInterval(sessionCheck);
      const states = [...sockets.values()];
      const closed = states.map(
        (state) => new Promise<void>((resolve) => state.ws.once("close", () => resolve())),
      );
      for (const state of states) {
        state.ws.close(realtimeCloseCodes.serverShutdown, "server shutting down");
      }
      // Clients answer the close at once; one that does not is cut after a second.
      const cut = setTimeout(() => {
        for (const state of states) {
          state.ws.terminate();
        }
      }, 1_000);
      await Promise.all(closed);
      clearTimeout(cut);
      await fanOut.close();
      await Promise.all(states.map((state) => state.added));
      await deps.connections
        .removeInstance(instanceId)
        .catch((error: unknown) => log.warn({ err: error }, "realtime: presence not cleared"));
      (await wss?.catch(() => undefined))?.close();
    },
  };
};
