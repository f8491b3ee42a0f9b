import { randomUUID } from "node:crypto";
import { type Server, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { ErrorEnvelope } from "@agora/contracts/envelope";
import type { Logger } from "pino";
import { securityHeaders } from "./security-headers";

/** How long a refused connection may keep sending (read and discarded) before it is cut. */
const LINGER_MS = 1_000;

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
 * request timeout keeps Node's own 408, and a socket with a response under way is only closed.
 */
export const answerClientErrors = (server: Server, logger?: Logger): void => {
  const answered = new WeakSet<Socket>();
  server.on("clientError", (error: ClientError, socket: Socket) => {
    if (answered.has(socket)) {
      return;
    }
    answered.add(socket);
    const inFlight = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || inFlight) {
      socket.destroy();

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
