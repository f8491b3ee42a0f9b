import { AppError, ValidationError } from "@agora/domain/common/app-error";
import type { Context, MiddlewareHandler, Next } from "hono";
import type { AppEnv } from "../app-env";
import { HttpRefusal } from "../http-refusal";
import { discardBody, limitBody } from "./body-limit";

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
  const limit = limitBody(maxBytes);

  return async (c, next) => {
    try {
      await limit(c, () => parseJson(c, next));
    } catch (error) {
      // Refused before the body was read (415): read it now, so the connection stays usable. A 413
      // has drained (or given up on) its body already.
      if (
        !(error instanceof AppError && error.code === "payload_too_large") &&
        !(await discardBody(c.req.raw))
      ) {
        throw error instanceof AppError
          ? new HttpRefusal(error.code, error.message, {
              details: error.details,
              retryAfterSeconds: error.retryAfterSeconds,
              limit: error.limit,
              headers: { ...(error instanceof HttpRefusal ? error.headers : {}), connection: "close" },
            })
          : error;
      }
      throw error;
    }
  };
};
