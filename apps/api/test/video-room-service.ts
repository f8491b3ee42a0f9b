// A local stand-in for a LiveKit server's RoomService, for the tests: an HTTP server on loopback
// that answers the two Twirp calls the service makes (DeleteRoom, RemoveParticipant) as LiveKit
// does, after checking each call as LiveKit would: a Bearer JWT signed with the API secret (HS256)
// and issued by the API key, with the call's grant (`roomCreate` to delete a room; `roomAdmin` on
// that very room to remove a participant). Calls that pass are recorded; the rest are answered 401
// and kept apart, so a test can prove none was refused.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { jwtVerify } from "jose";

export type RoomCall =
  | { method: "DeleteRoom"; room: string }
  | { method: "RemoveParticipant"; room: string; identity: string };

type VideoGrant = { room?: string; roomCreate?: boolean; roomAdmin?: boolean };

const PREFIX = "/twirp/livekit.RoomService/";

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    chunks.push(chunk as Buffer);
  }

  return Buffer.concat(chunks).toString("utf8");
};

/** A Twirp error as LiveKit sends it. */
const twirpError = (response: ServerResponse, status: number, code: string, msg: string) => {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ code, msg }));
};

export type VideoRoomService = Awaited<ReturnType<typeof startVideoRoomService>>;

export const startVideoRoomService = async (options: { apiKey?: string; apiSecret?: string } = {}) => {
  const apiKey = options.apiKey ?? "APIstandin";
  const apiSecret = options.apiSecret ?? "stand-in-secret-that-is-long-enough-0123456789";
  const secret = new TextEncoder().encode(apiSecret);
  const calls: RoomCall[] = [];
  const refused: Array<{ method: string; reason: string }> = [];
  const missed: RoomCall[] = [];
  /** Calls answered 503 before the next one is served (each failure counted in `failed`). */
  let failures = 0;
  let failed = 0;
  /** Calls left unanswered (a service that hangs), until `answer()` is called. */
  let hanging = false;
  const held: ServerResponse[] = [];
  /** Rooms that exist, and who is in them; a call about anything else is 404 not_found. */
  const rooms = new Map<string, Set<string>>();

  /** Checks the call's token and grant; resolves the problem, or undefined when it passes. */
  const check = async (request: IncomingMessage, call: RoomCall): Promise<string | undefined> => {
    const header = request.headers.authorization ?? "";
    const token = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
    let grant: VideoGrant;
    try {
      const { payload } = await jwtVerify(token, secret, { issuer: apiKey, algorithms: ["HS256"] });
      grant = (payload.video ?? {}) as VideoGrant;
    } catch (error) {
      return `token: ${(error as Error).message}`;
    }
    if (call.method === "DeleteRoom") {
      return grant.roomCreate === true ? undefined : "DeleteRoom needs roomCreate";
    }
    if (grant.roomAdmin !== true) {
      return "RemoveParticipant needs roomAdmin";
    }

    return grant.room === call.room ? undefined : `the grant is for room ${grant.room}, not ${call.room}`;
  };

  const server = createServer((request, response) => {
    void (async () => {
      const method = (request.url ?? "").startsWith(PREFIX) ? (request.url ?? "").slice(PREFIX.length) : "";
      const body = JSON.parse((await readBody(request)) || "{}") as { room?: string; identity?: string };
      if (request.method !== "POST" || (method !== "DeleteRoom" && method !== "RemoveParticipant")) {
        twirpError(response, 404, "bad_route", `no handler for ${request.method} ${request.url}`);

        return;
      }
      const call: RoomCall =
        method === "DeleteRoom"
          ? { method, room: String(body.room) }
          : { method, room: String(body.room), identity: String(body.identity) };
      const problem = await check(request, call);
      if (problem) {
        refused.push({ method, reason: problem });
        twirpError(response, 401, "unauthenticated", problem);

        return;
      }
      if (hanging) {
        held.push(response);

        return;
      }
      if (failures > 0) {
        failures -= 1;
        failed += 1;
        twirpError(response, 503, "unavailable", "the video service is restarting");

        return;
      }
      const members = rooms.get(call.room);
      if (!members || (call.method === "RemoveParticipant" && !members.has(call.identity))) {
        missed.push(call);
        twirpError(response, 404, "not_found", "requested room does not exist");

        return;
      }
      calls.push(call);
      if (call.method === "DeleteRoom") {
        rooms.delete(call.room);
      } else {
        members.delete(call.identity);
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    })().catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    /** What VIDEO_URL, VIDEO_API_KEY and VIDEO_API_SECRET would say (a `ws://` address). */
    config: { url: `ws://127.0.0.1:${port}`, apiKey, apiSecret },
    /** Every call that passed the checks and was answered 200, in order. */
    calls,
    /** Calls whose token or grant the stand-in refused (401). */
    refused,
    /** Calls about a room, or a participant, that is not there (answered 404 not_found, as LiveKit does). */
    missed,
    /** How many calls were answered 503 so far. */
    get failed() {
      return failed;
    },
    /** A participant connected to a room (the room exists from then on, as LiveKit creates it at the first join). */
    connect(room: string, identity: string) {
      const members = rooms.get(room) ?? new Set<string>();
      members.add(identity);
      rooms.set(room, members);
    },
    /** Whether `identity` is in `room`. */
    isConnected: (room: string, identity: string) => rooms.get(room)?.has(identity) ?? false,
    /** The next `count` calls are answered 503 (unavailable). */
    failNext(count: number) {
      failures = count;
    },
    /** Calls are left unanswered until `answer()`. */
    hang() {
      hanging = true;
    },
    /** Ends the hang: held calls are answered 503 (their callers have given up by then). */
    answer() {
      hanging = false;
      for (const response of held.splice(0)) {
        twirpError(response, 503, "unavailable", "late");
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
