import type { Actor } from "../common/actor";
import { UnauthorizedError } from "../common/app-error";
import type { IdentityDeps } from "./identity.deps";
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
 * One indexed query confirms the claims' session is live and the account active, and supplies the
 * current role (a role change or suspension takes effect on the next request, not when the token
 * expires); 401 otherwise.
 */
export const confirmSession = async (
  { repos }: { repos: { sessions: Pick<SessionRepository, "findActiveActor"> } },
  claims: AccessClaims,
): Promise<Actor> => {
  const live = await repos.sessions.findActiveActor(claims.sessionId);
  if (!live || live.userId !== claims.userId) {
    throw new UnauthorizedError("The session has ended; sign in again.");
  }

  return { userId: live.userId, role: live.role, sessionId: claims.sessionId };
};

/** Turns a bearer token into the Actor: `verifyBearer`, then `confirmSession`. */
export const authenticate = async (
  deps: Pick<IdentityDeps, "accessTokens" | "repos" | "clock">,
  token: string,
): Promise<Actor> => confirmSession(deps, await verifyBearer(deps, token));
