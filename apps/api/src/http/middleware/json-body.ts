import { AppError } from "@agora/domain/shared/app-error";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import { RequestValidationError } from "../errors";

const jsonMediaType = /^application\/([\w.-]+\+)?json$/i;
const bodylessMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A request that carries a body must carry JSON: another media type is 415
 * unsupported_media_type, unparseable JSON is 422 validation_failed. The parsed body is cached
 * on the request, so route validation does not parse it again.
 */
export const jsonBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (bodylessMethods.has(c.req.method)) {
    return next();
  }
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
    await c.req.json();
  } catch (error) {
    if (error instanceof AppError) {
      throw error;
    }
    throw new RequestValidationError(
      [{ path: "body", message: "is not valid JSON" }],
      "The request body is not valid JSON.",
    );
  }

  return next();
};
