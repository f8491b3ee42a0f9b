import type { AddressInfo } from "node:net";
import { realtimeFrameTypes } from "@agora/contracts/realtime";
import { expect } from "vitest";
import WebSocket from "ws";
import {
  type RealtimeOptions,
  type RealtimeServer,
  startRealtime,
} from "../src/modules/chat/realtime/realtime-server";
import { drain, listen } from "../src/server";
import type { Harness } from "./harness";

export type Frame = { type: string; data?: Record<string, unknown> };

/** A real `ws` client that records every frame and how it closed. */
export type TestSocket = {
  ws: WebSocket;
  frames: Frame[];
  /** Frames of type `message`, their data. */
  messages(): Array<Record<string, unknown> & { seq: number; body: string }>;
  closed: Promise<{ code: number; reason: string }>;
  /** Waits until `count` frames matching `type` arrived. */
  waitFor(type: string, count?: number, timeoutMs?: number): Promise<Frame[]>;
  close(): void;
};

export type Refusal = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
};

type SocketOptions = { origin?: string; autoPong?: boolean; protocols?: string[] };

/**
 * Opens a socket on a realtime URL (of this process's server, or of another API process);
 * resolves once it is open (rejects with the refusal otherwise).
 */
export const openSocket = (
  url: string,
  token: string | undefined,
  options: SocketOptions = {},
): Promise<TestSocket> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options.protocols ?? [], {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(options.origin ? { origin: options.origin } : {}),
      autoPong: options.autoPong ?? true,
    });
    const frames: Frame[] = [];
    const waiters: Array<() => void> = [];
    ws.on("message", (data) => {
      frames.push(JSON.parse(String(data)) as Frame);
      for (const wake of waiters.splice(0)) {
        wake();
      }
    });
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      ws.on("close", (code, reason) => done({ code, reason: String(reason) })),
    );
    ws.on("unexpected-response", (_request, response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      response.on("end", () => {
        const refusal: Refusal = {
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: body ? JSON.parse(body) : null,
        };
        reject(Object.assign(new Error(`refused ${refusal.status}`), { refusal }));
      });
    });
    ws.on("error", (error) => reject(error));
    ws.on("open", () => {
      const socket: TestSocket = {
        ws,
        frames,
        closed,
        messages: () =>
          frames
            .filter((frame) => frame.type === realtimeFrameTypes.message)
            .map((frame) => frame.data as Record<string, unknown> & { seq: number; body: string }),
        async waitFor(type, count = 1, timeoutMs = 10_000) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const matching = frames.filter((frame) => frame.type === type);
            if (matching.length >= count) {
              return matching;
            }
            if (Date.now() > deadline) {
              throw new Error(`waited for ${count} ${type} frames, got ${matching.length}`);
            }
            await new Promise<void>((wake) => {
              waiters.push(wake);
              setTimeout(wake, 50);
            });
          }
        },
        close: () => ws.close(),
      };
      resolve(socket);
    });
  });

/** The app of `h` listening on a port, with the realtime channel attached. */
export const startServer = async (h: Harness, options: RealtimeOptions = {}, port = 0) => {
  const server = await listen(h.handler, { host: "127.0.0.1", port });
  const realtime: RealtimeServer = await startRealtime(server, h.handler, {
    deps: h.runtime.realtime,
    logger: h.runtime.logger,
    options,
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** A JSON request over the wire. */
  const call = async <T = { data: unknown; meta: unknown; error: { code: string } | null }>(
    method: string,
    path: string,
    init: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await response.text();

    return {
      status: response.status,
      headers: response.headers,
      body: (text ? JSON.parse(text) : null) as T,
    };
  };

  const realtimeUrl = (conversationId: string, query = "") =>
    `${base.replace(/^http/, "ws")}/api/v1/chat/conversations/${conversationId}/realtime${query}`;

  /** Opens a socket on a conversation of this server (openSocket). */
  const connect = (
    conversationId: string,
    token: string | undefined,
    options: SocketOptions & { after?: number } = {},
  ): Promise<TestSocket> =>
    openSocket(
      realtimeUrl(conversationId, options.after === undefined ? "" : `?after=${options.after}`),
      token,
      options,
    );

  /** The refusal of an upgrade that must not happen. */
  const refusal = async (
    conversationId: string,
    token: string | undefined,
    options: { origin?: string; protocols?: string[] } = {},
  ): Promise<Refusal> => {
    try {
      const socket = await connect(conversationId, token, options);
      socket.close();
    } catch (error) {
      const found = (error as { refusal?: Refusal }).refusal;
      if (found) {
        return found;
      }
      throw error;
    }
    throw new Error("the upgrade was accepted");
  };

  return {
    port: (server.address() as AddressInfo).port,
    server,
    realtime,
    call,
    connect,
    refusal,
    realtimeUrl,
    async close() {
      await realtime.close();
      await drain(server, 1_000);
    },
  };
};

export type TestServer = Awaited<ReturnType<typeof startServer>>;

/** Two members signed in on `h`, and their conversation (opened by the first, 201). */
export const conversationPair = async (h: Harness) => {
  const ada = await h.signIn();
  const bob = await h.signIn();
  const res = await h.post<{ data: { id: string } }>(
    "/api/v1/chat/conversations",
    { other_user_id: bob.user.id },
    { token: ada.accessToken },
  );
  expect(res.status).toBe(201);

  return { ada, bob, conversationId: res.body.data.id };
};
