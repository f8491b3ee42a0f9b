import type { Actor } from "../shared/actor";
import { UnauthorizedError } from "../shared/app-error";
import type { IdentityDeps } from "./identity.deps";

/**
 * Turns a bearer token into the Actor: the signature and expiry are checked, then one indexed
 * query confirms the session is live and the account active, and supplies the current role (a
 * role change or suspension takes effect on the next request, not when the token expires).
 */
export const authenticate = async (
  { accessTokens, repos, clock }: Pick<IdentityDeps, "accessTokens" | "repos" | "clock">,
  token: string,
): Promise<Actor> => {
  const claims = await accessTokens.verify(token, clock.now());
  if (!claims) {
    throw new UnauthorizedError("The access token is invalid or expired.");
  }
  const live = await repos.sessions.findActiveActor(claims.sessionId);
  if (!live || live.userId !== claims.userId) {
    throw new UnauthorizedError("The session has ended; sign in again.");
  }

  return { userId: live.userId, role: live.role, sessionId: claims.sessionId };
};
