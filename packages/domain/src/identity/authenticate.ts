import type { Actor } from "../common/actor";
import { UnauthorizedError } from "../common/app-error";
import type { Clock } from "../common/clock";
import type { RateLimitResult } from "../common/rate-limit";
import type { IdentityDeps, IdentitySettings } from "./identity.deps";
import type { SessionRepository } from "./identity.ports";
import type { AccessClaims } from "./identity.types";

/**
 * The claims of a bearer token whose signature and expiry check out (401 otherwise). The session
 * is not confirmed yet: `authenticate` does both; a route whose one write confirms the session
 * itself (order creation) takes only this.
 */
export const verifyBearer = async (
  { accessTokens, clock }: Pick<IdentityDeps, "accessTokens" | "clock">,
  token: string,
): Promise<AccessClaims> => {
  const claims = await accessTokens.verify(token, clock.now());
  if (!claims) {
    throw new UnauthorizedError("The access token is invalid or expired.");
  }

  return claims;
};

/**
 * One indexed query confirms the claims' session is live now (sessionLive: not revoked, within its
 * absolute lifetime, the account active), and supplies the current role (a role change or
 * suspension takes effect on the next request, not when the token expires); 401 otherwise.
 */
export const confirmSession = async (
  {
    repos,
    clock,
    settings,
  }: {
    repos: { sessions: Pick<SessionRepository, "findActiveActor"> };
    clock: Clock;
    settings: Pick<IdentitySettings, "sessionMaxAgeSeconds">;
  },
  claims: AccessClaims,
): Promise<Actor> => {
  const live = await repos.sessions.findActiveActor(
    claims.sessionId,
    clock.now(),
    settings.sessionMaxAgeSeconds,
  );
  if (!live || live.userId !== claims.userId) {
    throw new UnauthorizedError("The session has ended; sign in again.");
  }

  return { userId: live.userId, role: live.role, sessionId: claims.sessionId };
};

/** What authenticating a bearer token needs. */
export type AuthenticateDeps = Pick<IdentityDeps, "accessTokens" | "repos" | "clock" | "sessionActivity"> & {
  settings: Pick<IdentitySettings, "sessionMaxAgeSeconds">;
};

/**
 * Turns a bearer token into the Actor: `verifyBearer`, then `confirmSession`; the session's use is
 * noted (sessionActivity: held in the process, written once a minute, no write here).
 */
export const authenticate = async (deps: AuthenticateDeps, token: string): Promise<Actor> => {
  const actor = await confirmSession(deps, await verifyBearer(deps, token));
  deps.sessionActivity.seen(actor.sessionId, deps.clock.now());

  return actor;
};

/**
 * `authenticate` and one hit of the caller's write limit, in one round trip (the session check and
 * the counter's upsert are one statement): a 401 counts nothing; otherwise the hit's outcome is
 * returned beside the Actor for the caller to apply (the write-limited route answers 429 past it).
 * `key` names the counter of the authenticated user.
 */
export const authenticateCounting = async (
  deps: AuthenticateDeps,
  token: string,
  count: { key: (userId: string) => string; limit: number; windowSeconds: number },
): Promise<{ actor: Actor; limit: RateLimitResult }> => {
  const claims = await verifyBearer(deps, token);
  const live = await deps.repos.sessions.findActiveActorCounting(
    claims.sessionId,
    claims.userId,
    {
      key: count.key(claims.userId),
      limit: count.limit,
      windowSeconds: count.windowSeconds,
      now: deps.clock.now(),
    },
    deps.settings.sessionMaxAgeSeconds,
  );
  if (!live || live.userId !== claims.userId) {
    throw new UnauthorizedError("The session has ended; sign in again.");
  }
  deps.sessionActivity.seen(claims.sessionId, deps.clock.now());

  return { actor: { userId: live.userId, role: live.role, sessionId: claims.sessionId }, limit: live.limit };
};
