import type { IncomingMessage, Server } from "node:http";
import type { Socket } from "node:net";

/**
 * How long a connection must have been without a request before shutdown cuts it as idle. Node's
 * own notion of idle (`closeIdleConnections`, which `server.close()` calls) includes a connection
 * accepted a moment ago whose request bytes have not been parsed yet, and one a balancer is
 * writing its next request on right now: cutting those resets a request the balancer already
 * sent, which it must not retry (a POST) and so answers 502. A short age rule avoids most of that.
 */
export const IDLE_CUT_AFTER_MS = 250;

type ConnectionState = { active: number; since: number; upgraded: boolean };

export type ConnectionTracker = {
  /** Destroys connections without a request in progress for at least `minIdleMs` (never upgraded ones). */
  closeIdle(minIdleMs?: number): void;
};

/** Follows each connection of `server`: requests in progress and when the last one ended. */
export const trackConnections = (server: Server): ConnectionTracker => {
  const connections = new Map<Socket, ConnectionState>();
  server.on("connection", (socket: Socket) => {
    connections.set(socket, { active: 0, since: performance.now(), upgraded: false });
    socket.once("close", () => connections.delete(socket));
  });
  server.on("request", (request: IncomingMessage, response) => {
    const state = connections.get(request.socket);
    if (!state) {
      return;
    }
    state.active += 1;
    response.once("close", () => {
      state.active -= 1;
      state.since = performance.now();
    });
  });
  // Upgraded sockets belong to the realtime server, which closes them with 1001 itself.
  server.on("upgrade", (request: IncomingMessage) => {
    const state = connections.get(request.socket);
    if (state) {
      state.upgraded = true;
    }
  });

  return {
    closeIdle(minIdleMs = IDLE_CUT_AFTER_MS) {
      const now = performance.now();
      for (const [socket, state] of connections) {
        if (!state.upgraded && state.active === 0 && now - state.since >= minIdleMs) {
          socket.destroy();
        }
      }
    },
  };
};
