import { AppError } from "@agora/domain/common/app-error";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import { HttpRefusal } from "../http-refusal";

/** A refused body is read and dropped up to this much and this long, so the connection stays usable. */
export const DRAIN_LIMITS = { bytes: 16 * 1024 * 1024, ms: 2_000 };

type Reader = ReadableStreamDefaultReader<Uint8Array>;

/**
 * Reads what is left of a refused body and drops it: true when it ended within the limits. Then the
 * connection is clean and stays alive. Otherwise the reader is let go (cancelling it would cut the
 * socket before the answer) and the answer says `Connection: close`.
 */
const drain = async (reader: Reader): Promise<boolean> => {
  const deadline = Date.now() + DRAIN_LIMITS.ms;
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), DRAIN_LIMITS.ms);
  });
  try {
    while (Date.now() < deadline) {
      const chunk = await Promise.race([reader.read(), timeout]);
      if (chunk === "timeout") {
        return false;
      }
      if (chunk.done) {
        return true;
      }
      bytes += chunk.value.length;
      if (bytes > DRAIN_LIMITS.bytes) {
        return false;
      }
    }

    return false;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
};

/**
 * Drops the body of a request refused before reading it (415, 422…), within DRAIN_LIMITS; true
 * when nothing is left unread. The Node adapter would otherwise try for half a second and then cut
 * a connection the client believes alive.
 */
export const discardBody = async (request: Request): Promise<boolean> => {
  // bodyUsed first: it does not make the Node adapter build a Request, as reading `body` does.
  if (request.bodyUsed || !request.body) {
    return true;
  }
  if (request.body.locked) {
    return false;
  }

  return drain(request.body.getReader());
};

/**
 * Bodies over `maxBytes` are 413 payload_too_large, with or without a Content-Length. Unlike
 * hono's bodyLimit, the refused body is drained first (see DRAIN_LIMITS): answered while the client
 * is still sending, a keep-alive connection would be reset under the client's next request (the
 * Node adapter gives up draining after half a second), or the client's own write would fail before
 * it reads the answer. A body that does not end within the limits gets `Connection: close`.
 */
export const limitBody = (maxBytes: number): MiddlewareHandler<AppEnv> => {
  const refuse = async (reader: Reader): Promise<never> => {
    const drained = await drain(reader);
    const message = `Request bodies are limited to ${maxBytes} bytes.`;
    throw drained
      ? new AppError("payload_too_large", message)
      : new HttpRefusal("payload_too_large", message, { headers: { connection: "close" } });
  };

  return async (c, next) => {
    const raw = c.req.raw;
    const length = raw.headers.get("content-length");
    if (length !== null && !raw.headers.has("transfer-encoding")) {
      // The HTTP parser holds the body to its Content-Length: a declared length within the limit
      // needs no counting. Decided from the headers alone: touching `raw.body` makes the Node
      // adapter build a whole fetch Request with a web stream over the socket (a measurable share of
      // an order's creation, docs/performance.md), where `c.req.json()` later reads the body from Node's stream directly.
      const body = Number.parseInt(length, 10) > maxBytes ? raw.body : null;

      return body ? refuse(body.getReader()) : next();
    }
    if (!raw.body) {
      return next();
    }
    const reader = raw.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        break;
      }
      size += value.length;
      if (size > maxBytes) {
        return refuse(reader);
      }
      chunks.push(value);
    }
    reader.releaseLock();
    const body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.length;
    }
    c.req.raw = new Request(raw, { body });

    return next();
  };
};
