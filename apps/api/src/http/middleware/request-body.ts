import { AppError, ValidationError } from "@agora/domain/shared/app-error";
import type { Context, MiddlewareHandler, Next } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env";

const jsonMediaType = /^application\/([\w.-]+\+)?json$/i;

const parseJson = async (c: Context<AppEnv>, next: Next): Promise<void> => {
  const length = c.req.header("content-length");
  const hasBody = (length !== undefined && length !== "0") || c.req.header("transfer-encoding") !== undefined;
  if (!hasBody) {
    return next();
  }
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim() ?? "";
  if (!jsonMediaType.test(mediaType)) {
    throw new AppError(
      "unsupported_media_type",
      "Request bodies must be JSON (Content-Type: application/json).",
    );
  }
  try {
    // Parsed once here and cached on the request; route validation reads the cache.
    await c.req.json();
  } catch (error) {
    if (!(error instanceof SyntaxError)) {
      throw error;
    }
    throw new ValidationError(
      [{ path: "body", message: "is not valid JSON" }],
      "The request body is not valid JSON.",
    );
  }

  return next();
};

/**
 * Bodies are limited to `maxBytes` (413 payload_too_large, also for chunked uploads without a
 * length); a body must be JSON (415 unsupported_media_type) that parses (422 validation_failed).
 * Mounted for the methods that carry bodies only, so GET routes keep Hono's synchronous path.
 */
export const requestBody = (maxBytes: number): MiddlewareHandler<AppEnv> => {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      // The rest of the body is never read, so the connection cannot carry another request: say
      // so (`Connection: close`) rather than keep it alive and reset it under the client's next
      // request (the Node adapter gives up draining after half a second).
      throw new AppError("payload_too_large", `Request bodies are limited to ${maxBytes} bytes.`, {
        headers: { connection: "close" },
      });
    },
  });

  return (c, next) => limit(c, () => parseJson(c, next));
};
