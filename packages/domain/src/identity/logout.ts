import type { IdentityDeps } from "./identity.deps";
import { InvalidRefreshTokenError } from "./identity.errors";
import { hashToken } from "./secrets";

/** Revokes the session of the presented refresh token: its tokens and its access tokens stop working. */
export const logout = async (
  { uow, clock }: Pick<IdentityDeps, "uow" | "clock">,
  input: { refreshToken: string },
) => {
  const now = clock.now();
  const revoked = await uow.run(async (tx) => {
    const token = await tx.sessions.findRefreshTokenForUpdate(hashToken(input.refreshToken));
    if (!token || token.sessionRevokedAt || token.expiresAt <= now) {
      return false;
    }
    await tx.sessions.revoke(token.sessionId, "logout", now);

    return true;
  });
  if (!revoked) {
    throw new InvalidRefreshTokenError();
  }
};
