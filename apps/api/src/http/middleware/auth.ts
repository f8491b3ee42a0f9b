import type { Actor, Role } from "@agora/domain/common/actor";
import { UnauthorizedError } from "@agora/domain/common/app-error";
import { type AuthenticateDeps, authenticate, verifyBearer } from "@agora/domain/identity/authenticate";
import { requireRole } from "@agora/domain/identity/identity.policy";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";

const bearerPattern = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/;

export type AuthDeps = AuthenticateDeps;

/** The token of `Authorization: Bearer <token>`; undefined without the header; 401 when malformed. */
export const bearerToken = (c: Context<AppEnv>): string | undefined => {
  const header = c.req.header("authorization");
  if (header === undefined) {
    return undefined;
  }
  const match = bearerPattern.exec(header.trim());
  if (!match?.[1]) {
    throw new UnauthorizedError("Send the access token as `Authorization: Bearer <token>`.");
  }

  return match[1];
};

/** Bearer required: the Actor is put on the context, anything else is 401 unauthorized. */
export const requireAuth =
  (deps: AuthDeps): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const token = bearerToken(c);
    if (token === undefined) {
      throw new UnauthorizedError();
    }
    c.set("actor", { ...(await authenticate(deps, token)), requestId: c.env.requestId });
    await next();
  };

/**
 * Optional bearer for a route whose one write confirms the session itself (order creation): a valid
 * token's claims are put on the context as `claims`; no Authorization header is a guest; a header
 * that is malformed or expired is 401 and never falls back to guest. The route's use case must
 * confirm the session (an ended one is 401 there) before anything takes effect or is refused;
 * only the request's own validation (422) may answer first.
 */
export const optionalBearer =
  (deps: AuthDeps): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const token = bearerToken(c);
    if (token !== undefined) {
      c.set("claims", await verifyBearer(deps, token));
    }
    await next();
  };

/** The authenticated caller of a route behind requireAuth. */
export const actorOf = (c: Context<AppEnv>): Actor => {
  const actor = c.get("actor");
  if (!actor) {
    throw new UnauthorizedError();
  }

  return actor;
};

/**
 * The client address for per-IP limits: the last X-Forwarded-For entry (the one our reverse proxy
 * appended) when TRUST_PROXY is set, else the socket's peer address.
 */
export const clientIp = (c: Context<AppEnv>, trustProxy: boolean): string => {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for");
    const last = forwarded?.split(",").at(-1)?.trim();
    if (last) {
      return last;
    }
  }
  const incoming = c.env.incoming as { socket?: { remoteAddress?: string } } | undefined;

  return incoming?.socket?.remoteAddress ?? "unknown";
};

/** After requireAuth: 403 unless the caller holds one of `roles` (checked before body validation). */
export const requireRoles =
  (...roles: Role[]): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    requireRole(actorOf(c), ...roles);
    await next();
  };
