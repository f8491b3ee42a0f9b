import type { IdentityDeps } from "./identity.deps";
import type { IdentityRepositories } from "./identity.ports";
import type { IssuedSession, User } from "./identity.types";
import { generateRefreshToken, hashToken } from "./secrets";

/** When a session that began at `createdAt` ends for good, however often it is refreshed. */
export const sessionEndsAt = ({ settings }: Pick<IdentityDeps, "settings">, createdAt: Date): Date =>
  new Date(createdAt.getTime() + settings.sessionMaxAgeSeconds * 1000);

/**
 * Adds a refresh token to `session` (a new session when it is being created): a random one, or
 * `refreshToken` when given (a rotation's derived successor). It expires after
 * REFRESH_TOKEN_TTL_SECONDS, but never after the session's absolute end: rotation does not extend
 * a session.
 */
export const addRefreshToken = async (
  deps: Pick<IdentityDeps, "ids" | "settings">,
  tx: IdentityRepositories,
  session: { id: string; createdAt: Date },
  now: Date,
  refreshToken: string = generateRefreshToken(),
): Promise<string> => {
  const sliding = now.getTime() + deps.settings.refreshTokenTtlSeconds * 1000;
  await tx.sessions.addRefreshToken({
    id: deps.ids.next(),
    sessionId: session.id,
    tokenHash: hashToken(refreshToken),
    createdAt: now,
    expiresAt: new Date(Math.min(sliding, sessionEndsAt(deps, session.createdAt).getTime())),
  });

  return refreshToken;
};

/**
 * The response of a sign-in or refresh: an access token for `sessionId` issued at `issuedAt`, and
 * the refresh token. `now` is later than `issuedAt` only for a replayed rotation, which gets the
 * first answer's access token again (same claims and times, so the same signed token); its
 * `expiresIn` is what is left of it (a new one if none is left).
 */
export const presentSession = async (
  { accessTokens }: Pick<IdentityDeps, "accessTokens">,
  user: User,
  sessionId: string,
  refreshToken: string,
  issuedAt: Date,
  now: Date = issuedAt,
): Promise<IssuedSession> => {
  const claims = { userId: user.id, role: user.role, sessionId };
  const spent = Math.max(0, Math.floor(now.getTime() / 1000) - Math.floor(issuedAt.getTime() / 1000));
  const access = await accessTokens.issue(claims, issuedAt);
  if (spent >= access.expiresIn) {
    // The first answer's access token has expired already (a grace longer than its lifetime): a fresh one.
    const fresh = await accessTokens.issue(claims, now);

    return { accessToken: fresh.token, refreshToken, expiresIn: fresh.expiresIn, user };
  }

  return { accessToken: access.token, refreshToken, expiresIn: access.expiresIn - spent, user };
};
