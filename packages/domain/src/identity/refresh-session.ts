import type { IdentityDeps } from "./identity.deps";
import { InvalidRefreshTokenError } from "./identity.errors";
import { sessionLive } from "./identity.policy";
import type { IdentityRepositories } from "./identity.ports";
import type { IssuedSession, User } from "./identity.types";
import { addRefreshToken, presentSession } from "./issue-session";
import { hashToken, successorOf } from "./secrets";

/**
 * The successor a rotation of `parent` issued, for a replay inside the grace: the current key's
 * (`current`), unless the ring still accepts previous keys (a transition: common/derived-keys.ts)
 * and the rotation was made under one of them, by a process that ran before the key changed; that
 * successor is then found among the session's tokens (one lookup per previous key, on this rare
 * path only), so the replay still gets the very token the first answer had.
 */
const firstSuccessor = async (
  { settings }: Pick<IdentityDeps, "settings">,
  tx: IdentityRepositories,
  sessionId: string,
  parent: string,
  current: string,
): Promise<string> => {
  for (const key of settings.refreshKey.previous) {
    const candidate = successorOf(key, parent);
    if ((await tx.sessions.findRefreshTokenForUpdate(hashToken(candidate)))?.sessionId === sessionId) {
      return candidate;
    }
  }

  return current;
};

/**
 * Rotates a refresh token. The token row is locked for the transaction, so parallel refreshes
 * with one token serialize:
 * - unused: it is marked rotated and its successor joins the session. The successor is derived
 *   from the token under a server key (secrets.ts: successorOf), so it never has to be stored;
 * - rotated within the reuse grace (one app refreshing from two places at once): the answer is the
 *   first rotation's, the same successor and the same access token (issued at the rotation's
 *   time), so the session never forks into two branches; nothing is written or revoked;
 * - rotated earlier: a theft signal, the whole session is revoked (its newest token too) and the
 *   answer is 401 invalid_refresh_token.
 * The token's session must be live (sessionLive, the rule every per-request check applies: not
 * revoked, the account active, and younger than its absolute lifetime, SESSION_MAX_AGE_SECONDS from
 * sign-in, whatever its tokens say): 401 otherwise, and the user signs in again.
 */
export const refreshSession = async (
  deps: IdentityDeps,
  input: { refreshToken: string },
): Promise<IssuedSession> => {
  const { uow, clock, settings } = deps;
  const now = clock.now();
  const outcome = await uow.run(
    async (tx): Promise<{ user: User; sessionId: string; refreshToken: string; issuedAt: Date } | null> => {
      const token = await tx.sessions.findRefreshTokenForUpdate(hashToken(input.refreshToken));
      if (!token || token.expiresAt <= now) {
        return null;
      }
      const user = await tx.users.findById(token.userId);
      const session = user && {
        revokedAt: token.sessionRevokedAt,
        createdAt: token.sessionCreatedAt,
        userStatus: user.status,
      };
      if (!session || !sessionLive(session, settings.sessionMaxAgeSeconds, now)) {
        return null;
      }
      const successor = successorOf(settings.refreshKey.current, input.refreshToken);
      if (token.rotatedAt !== null) {
        if (now.getTime() - token.rotatedAt.getTime() > settings.refreshReuseGraceSeconds * 1000) {
          await tx.sessions.revoke(token.sessionId, "refresh_token_reused", now);

          return null;
        }
        const issued = await firstSuccessor(deps, tx, token.sessionId, input.refreshToken, successor);

        return { user, sessionId: token.sessionId, refreshToken: issued, issuedAt: token.rotatedAt };
      }
      await tx.sessions.markRotated(token.id, now);
      await addRefreshToken(
        deps,
        tx,
        { id: token.sessionId, createdAt: token.sessionCreatedAt },
        now,
        successor,
      );

      return { user, sessionId: token.sessionId, refreshToken: successor, issuedAt: now };
    },
  );
  if (!outcome) {
    throw new InvalidRefreshTokenError();
  }

  return presentSession(deps, outcome.user, outcome.sessionId, outcome.refreshToken, outcome.issuedAt, now);
};
