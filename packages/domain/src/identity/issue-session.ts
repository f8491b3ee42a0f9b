import type { IdentityDeps } from "./identity.deps";
import type { IdentityRepositories } from "./identity.ports";
import type { IssuedSession, User } from "./identity.types";
import { generateRefreshToken, hashToken } from "./secrets";

/** Adds a refresh token to `sessionId` (a new session when it is being created). */
export const addRefreshToken = async (
  { ids, settings }: Pick<IdentityDeps, "ids" | "settings">,
  tx: IdentityRepositories,
  sessionId: string,
  now: Date,
): Promise<string> => {
  const refreshToken = generateRefreshToken();
  await tx.sessions.addRefreshToken({
    id: ids.next(),
    sessionId,
    tokenHash: hashToken(refreshToken),
    createdAt: now,
    expiresAt: new Date(now.getTime() + settings.refreshTokenTtlSeconds * 1000),
  });

  return refreshToken;
};

/** The response of a sign-in or refresh: a fresh access token for `sessionId` and the refresh token. */
export const presentSession = async (
  { accessTokens }: Pick<IdentityDeps, "accessTokens">,
  user: User,
  sessionId: string,
  refreshToken: string,
  now: Date,
): Promise<IssuedSession> => {
  const access = await accessTokens.issue({ userId: user.id, role: user.role, sessionId }, now);

  return { accessToken: access.token, refreshToken, expiresIn: access.expiresIn, user };
};
