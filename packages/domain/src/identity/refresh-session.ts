import type { IdentityDeps } from "./identity.deps";
import { InvalidRefreshTokenError } from "./identity.errors";
import type { IssuedSession, User } from "./identity.types";
import { addRefreshToken, presentSession, sessionEndsAt } from "./issue-session";
import { hashToken } from "./secrets";

/**
 * Rotates a refresh token. The token row is locked for the transaction, so parallel refreshes
 * with one token serialize:
 * - unused: it is marked rotated and a new token joins the session;
 * - rotated within the reuse grace (one app refreshing from two places): another new token joins
 *   the same session, nothing is revoked;
 * - rotated earlier: a theft signal, the whole session is revoked (its newest token too) and the
 *   answer is 401 invalid_refresh_token.
 * A session older than its absolute lifetime (SESSION_MAX_AGE_SECONDS from sign-in) is over
 * whatever its tokens say: 401, and the user signs in again.
 */
export const refreshSession = async (
  deps: IdentityDeps,
  input: { refreshToken: string },
): Promise<IssuedSession> => {
  const { uow, clock, settings } = deps;
  const now = clock.now();
  const outcome = await uow.run(
    async (tx): Promise<{ user: User; sessionId: string; refreshToken: string } | null> => {
      const token = await tx.sessions.findRefreshTokenForUpdate(hashToken(input.refreshToken));
      if (!token || token.sessionRevokedAt || token.expiresAt <= now) {
        return null;
      }
      if (sessionEndsAt(deps, token.sessionCreatedAt) <= now) {
        await tx.sessions.revoke(token.sessionId, "session_expired", now);

        return null;
      }
      const user = await tx.users.findById(token.userId);
      if (user?.status !== "active") {
        return null;
      }
      if (token.rotatedAt === null) {
        await tx.sessions.markRotated(token.id, now);
      } else if (now.getTime() - token.rotatedAt.getTime() > settings.refreshReuseGraceSeconds * 1000) {
        await tx.sessions.revoke(token.sessionId, "refresh_token_reused", now);

        return null;
      }
      const refreshToken = await addRefreshToken(
        deps,
        tx,
        { id: token.sessionId, createdAt: token.sessionCreatedAt },
        now,
      );

      return { user, sessionId: token.sessionId, refreshToken };
    },
  );
  if (!outcome) {
    throw new InvalidRefreshTokenError();
  }

  return presentSession(deps, outcome.user, outcome.sessionId, outcome.refreshToken, now);
};
