import { randomUUID } from "node:crypto";
import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { ErrorEnvelope } from "@agora/contracts/envelope";
import type { Logger } from "pino";
import { securityHeaders } from "./security-headers";

/** How long a refused connection may keep sending (read and discarded) before it is cut. */
const LINGER_MS = 1_000;

/** How long an answer under way when its connection's next request was refused may take to end. */
const RESPONSE_GRACE_MS = 30_000;

type ClientError = Error & { code?: string };

const refusalOf = (
  error: ClientError,
): { status: number; code: ErrorEnvelope["error"]["code"]; message: string } =>
  error.code === "HPE_HEADER_OVERFLOW"
    ? { status: 431, code: "payload_too_large", message: "Request headers are limited to 16 KiB in total." }
    : { status: 400, code: "validation_failed", message: "The request is not valid HTTP/1.1." };

/**
 * Requests Node's HTTP parser refuses before any handler runs (headers over 16 KiB, malformed
 * HTTP) get the envelope and an X-Request-Id like every other response, instead of Node's bare
 * status line. The connection is closed honestly (`Connection: close`), and what the client still
 * sends is read and dropped for a moment first, so the answer is not lost to a TCP reset. A
 * request timeout keeps Node's own 408. Behind an answer still under way (a pipelined request),
 * nothing is answered: that answer is sent whole, then the connection ends.
 */
export const answerClientErrors = (server: Server, logger?: Logger): void => {
  const answered = new WeakSet<Socket>();
  // Each connection's latest response: a parse error that arrives while it is still being written
  // (a pipelined request after it) must not put a second status line into its middle.
  const latest = new WeakMap<Socket, ServerResponse>();
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    latest.set(request.socket, response);
  });
  server.on("clientError", (error: ClientError, socket: Socket) => {
    if (answered.has(socket)) {
      return;
    }
    answered.add(socket);
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();

      return;
    }
    const inFlight = latest.get(socket);
    if (inFlight && !inFlight.writableFinished) {
      // The answer under way is sent whole, then the connection ends (no answer for the bad bytes).
      const cut = setTimeout(() => socket.destroy(), RESPONSE_GRACE_MS).unref();
      inFlight.once("close", () => {
        clearTimeout(cut);
        socket.end();
        setTimeout(() => socket.destroy(), LINGER_MS).unref();
      });

      return;
    }
    if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
      socket.end("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
      setTimeout(() => socket.destroy(), LINGER_MS).unref();

      return;
    }
    const { status, code, message } = refusalOf(error);
    const requestId = randomUUID();
    const body = JSON.stringify({
      success: false,
      data: null,
      meta: null,
      error: { code, message },
      request_id: requestId,
    } satisfies ErrorEnvelope);
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}`,
      "content-type: application/json",
      `content-length: ${Buffer.byteLength(body)}`,
      "connection: close",
      `x-request-id: ${requestId}`,
      ...securityHeaders.map(([name, value]) => `${name}: ${value}`),
    ];
    socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
    logger?.info(
      { request_id: requestId, status, error: error.code ?? error.name },
      "request refused by the HTTP parser",
    );
  });
};
