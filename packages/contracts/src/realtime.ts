import {
  type ClientFrame,
  chatOperations,
  type MessageDto,
  type PresenceDto,
  type ReadMarkerDto,
  realtimeCloseCodes,
  realtimeFrameTypes,
  realtimeLimits,
  realtimeProtocols,
  type ServerFrame,
  serverFrameSchema,
  type TypingDto,
} from "./chat";

export {
  type ClientFrame,
  clientFrameSchema,
  type PresenceDto,
  presenceSchema,
  realtimeCloseCodes,
  realtimeErrorCodes,
  realtimeFrameTypes,
  realtimeLimits,
  realtimeProtocols,
  type ServerFrame,
  serverFrameSchema,
  type TypingDto,
  typingFrameDataSchema,
} from "./chat";

/**
 * The chat realtime helper: one WebSocket per conversation, opened with the access token, reopened
 * with backoff after a drop, and resumed with `after=<last seq seen>` so the server first replays
 * what was missed (the persisted history is canonical; see the route's OpenAPI description). It uses the
 * platform's global WebSocket, so it runs on Node 22+, React Native, Deno, Bun and in browsers (which
 * send the token as a subprotocol: see `defaultSocketFactory`).
 */

/** The part of the WebSocket API the helper uses. */
export type WebSocketLike = {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  close(code?: number, reason?: string): void;
  send(data: string): void;
};

/** Opens a socket that sends `headers` with the upgrade request. */
export type SocketFactory = (url: string, headers: Record<string, string>) => WebSocketLike;

type WebSocketConstructor = new (url: string, second?: unknown, third?: unknown) => WebSocketLike;

/** A browser page or worker: its WebSocket takes no headers. */
const inBrowser = () =>
  typeof (globalThis as { document?: unknown }).document !== "undefined" ||
  typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== "undefined";

/**
 * The default factory. The channel authenticates with `Authorization`: React Native takes headers
 * as the third argument, the WHATWG WebSocket of Node (undici), Deno and Bun as `{ headers }` in
 * the second. A browser's WebSocket cannot send a header, so there the token travels as the
 * subprotocol pair `agora.v1, bearer.<token>` (`realtimeProtocols`); the server answers `agora.v1`.
 */
export const defaultSocketFactory: SocketFactory = (url, headers) => {
  const Socket = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!Socket) {
    throw new Error("No global WebSocket: pass createSocket.");
  }
  const product = (globalThis as { navigator?: { product?: string } }).navigator?.product;
  if (product === "ReactNative") {
    return new Socket(url, undefined, { headers });
  }
  if (inBrowser()) {
    const token = /^Bearer (\S+)$/.exec(headers.authorization ?? "")?.[1];

    return new Socket(
      url,
      token
        ? [realtimeProtocols.channel, `${realtimeProtocols.bearerPrefix}${token}`]
        : [realtimeProtocols.channel],
    );
  }

  return new Socket(url, { headers });
};

export type ChatChannelStatus = "connecting" | "open" | "closed";

export type ChatChannelHandlers = {
  /** The last seq the app already has: the first connection resumes after it. */
  after?: number;
  /** Each message once, in seq order (replayed ones first after a reconnect). */
  onMessage?: (message: MessageDto) => void;
  onRead?: (marker: ReadMarkerDto) => void;
  /** The other participant is typing (at most one per 2 s per socket of theirs; show it for a few seconds). */
  onTyping?: (typing: TypingDto) => void;
  /** The other participant's presence: once after each (re)connect, then on each change. */
  onPresence?: (presence: PresenceDto) => void;
  onStatus?: (status: ChatChannelStatus) => void;
  /** The session ended (close `realtimeCloseCodes.sessionEnded`, 4401): the helper stops; sign in again. */
  onSessionEnded?: () => void;
  createSocket?: SocketFactory;
  /** Reconnect delays: the first, doubled per failed try up to the cap (default 500 ms, 30 s). */
  backoff?: { initialMs?: number; maxMs?: number };
};

export type ChatChannelOptions = ChatChannelHandlers & {
  /** The service's address, e.g. `https://api.agora.example`. */
  baseUrl: string;
  conversationId: string;
  getAccessToken: () => string | null | undefined | Promise<string | null | undefined>;
  /**
   * A new access token (the client's one refresh), tried once after a connection that never
   * opened: the upgrade's 401 is invisible to the WebSocket API, and an access token outlives its
   * 15 minutes only on an open socket.
   */
  refreshAccessToken?: () => Promise<string | null>;
};

export type ChatChannel = {
  /** The highest seq delivered so far (what a reconnect resumes after). */
  readonly lastSeq: number | undefined;
  readonly status: ChatChannelStatus;
  /**
   * Tells the other participant the caller is typing: call it on each keystroke; it sends at most
   * one frame per `realtimeLimits.typingIntervalMs` (the server drops more), and nothing while
   * the socket is not open (typing is momentary: it is never queued or retried). Answers whether a
   * frame was sent.
   */
  typing(): boolean;
  /** Closes the socket for good (no reconnect). */
  close(): void;
};

export const connectChat = (options: ChatChannelOptions): ChatChannel => {
  const createSocket = options.createSocket ?? defaultSocketFactory;
  const initialMs = options.backoff?.initialMs ?? 500;
  const maxMs = options.backoff?.maxMs ?? 30_000;
  const base = options.baseUrl.replace(/\/+$/, "").replace(/^http/, "ws");
  const path = `${base}${chatOperations.conversationsRealtime.path.replace("{id}", encodeURIComponent(options.conversationId))}`;

  let lastSeq = options.after;
  let status: ChatChannelStatus = "connecting";
  let socket: WebSocketLike | null = null;
  let stopped = false;
  let failures = 0;
  let opened = false;
  let refreshed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let typedAt: number | undefined;

  const setStatus = (next: ChatChannelStatus) => {
    if (status !== next) {
      status = next;
      options.onStatus?.(next);
    }
  };

  const deliver = (frame: ServerFrame) => {
    if (frame.type === realtimeFrameTypes.message) {
      // A replay after a reconnect may overlap what was already delivered: each seq goes out once.
      if (lastSeq === undefined || frame.data.seq > lastSeq) {
        lastSeq = frame.data.seq;
        options.onMessage?.(frame.data);
      }
    } else if (frame.type === realtimeFrameTypes.read) {
      options.onRead?.(frame.data);
    } else if (frame.type === realtimeFrameTypes.typing) {
      options.onTyping?.(frame.data);
    } else if (frame.type === realtimeFrameTypes.presence) {
      options.onPresence?.(frame.data);
    }
  };

  const scheduleReconnect = () => {
    if (stopped) {
      return;
    }
    const delay = Math.min(maxMs, initialMs * 2 ** failures);
    failures += 1;
    // Jitter spreads the reconnects of many clients after a server restart.
    timer = setTimeout(open, delay / 2 + Math.random() * (delay / 2));
  };

  async function open() {
    if (stopped) {
      return;
    }
    setStatus("connecting");
    let token: string | null | undefined;
    try {
      const refresh = failures > 0 && !opened && !refreshed ? options.refreshAccessToken : undefined;
      if (refresh) {
        refreshed = true;
      }
      token = (refresh ? await refresh() : null) ?? (await options.getAccessToken());
    } catch {
      scheduleReconnect();
      return;
    }
    if (stopped) {
      return;
    }
    const url = lastSeq === undefined ? path : `${path}?after=${lastSeq}`;
    let current: WebSocketLike;
    try {
      current = createSocket(url, token ? { authorization: `Bearer ${token}` } : {});
    } catch {
      scheduleReconnect();
      return;
    }
    socket = current;
    opened = false;
    current.onopen = () => {
      opened = true;
      refreshed = false;
      failures = 0;
      setStatus("open");
    };
    current.onmessage = (event) => {
      if (typeof event.data !== "string") {
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(event.data);
      } catch {
        return;
      }
      const frame = serverFrameSchema.safeParse(parsed);
      if (frame.success) {
        deliver(frame.data);
      }
    };
    current.onerror = () => {
      // A close event follows; it decides.
    };
    current.onclose = (event) => {
      if (socket !== current) {
        return;
      }
      socket = null;
      if (stopped) {
        setStatus("closed");
        return;
      }
      if (event.code === realtimeCloseCodes.sessionEnded) {
        stopped = true;
        setStatus("closed");
        options.onSessionEnded?.();
        return;
      }
      setStatus("connecting");
      scheduleReconnect();
    };
  }

  void open();

  return {
    get lastSeq() {
      return lastSeq;
    },
    get status() {
      return status;
    },
    typing() {
      const now = Date.now();
      if (
        !socket ||
        status !== "open" ||
        (typedAt !== undefined && now - typedAt < realtimeLimits.typingIntervalMs)
      ) {
        return false;
      }
      typedAt = now;
      socket.send(JSON.stringify({ type: realtimeFrameTypes.typing } satisfies ClientFrame));

      return true;
    },
    close() {
      stopped = true;
      clearTimeout(timer);
      const current = socket;
      socket = null;
      current?.close(realtimeCloseCodes.normal, "client closed");
      setStatus("closed");
    },
  };
};
