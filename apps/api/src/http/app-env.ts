import type { ErrorCode } from "@agora/contracts/errors";
import type { ChannelGrant } from "@agora/domain/chat/open-channel";
import type { Actor } from "@agora/domain/common/actor";
import type { AccessClaims } from "@agora/domain/identity/identity.types";
import type { Http2Bindings, HttpBindings } from "@hono/node-server";
import type { Context } from "hono";
import type { Logger } from "pino";

/**
 * What the request handler (http/handler.ts) hands every request, as Hono bindings (`c.env`):
 * the request id and the process logger, plus Node's request/response when served over HTTP.
 */
export type RequestBindings = Partial<HttpBindings | Http2Bindings> & {
  requestId: string;
  rootLogger: Logger;
  /**
   * Present when the request arrived as an HTTP Upgrade (modules/chat/realtime/realtime-server.ts): the route
   * that admits it leaves its grant here (`admit`), and the realtime server then switches protocols.
   */
  upgrade?: UpgradeSlot;
};

/** Where the route admits a WebSocket upgrade. */
export type UpgradeSlot = {
  /**
   * Leaves what the socket may do and holds its place within the socket caps; past one it throws
   * 429 `rate_limited` (with `Retry-After`), and the upgrade is refused.
   */
  admit(grant: ChannelGrant): void;
};

/** Per-request values handlers and middleware put on the Hono context. */
export type AppVariables = {
  /** Created on first use by `requestLogger(c)`. */
  logger: Logger | undefined;
  /** Set by the auth middleware; read it with `actorOf(c)`. */
  actor: Actor | undefined;
  /** Set by `optionalBearer`: a verified token's claims, its session not yet confirmed. */
  claims: AccessClaims | undefined;
  /**
   * Set by a write-limited operation once the request is counted: its RateLimit headers, which
   * `respond` puts on every answer it builds (headers an answer passes itself win).
   */
  rateLimitHeaders: Record<string, string> | undefined;
  /**
   * Set by an operation that documents another status for a code than the code's own (`[401,
   * "invalid_code"]` at sign-in): the statuses its errors answer with.
   */
  errorStatuses: Partial<Record<ErrorCode, number>> | undefined;
};

export type AppEnv = { Bindings: RequestBindings; Variables: AppVariables };

/**
 * The request's logger (a pino child bound to `request_id`), created on first use so requests that
 * log nothing but their access line pay nothing for it.
 */
export const requestLogger = (c: Context<AppEnv>): Logger => {
  let logger = c.get("logger");
  if (!logger) {
    logger = c.env.rootLogger.child({ request_id: c.env.requestId });
    c.set("logger", logger);
  }

  return logger;
};
