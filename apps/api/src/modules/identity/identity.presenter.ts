import type { AccountSessionDto, SessionDto, UserDto } from "@agora/contracts/identity";
import type { IssuedSession, User } from "@agora/domain/identity/identity.types";
import type { ListedSession } from "@agora/domain/identity/manage-sessions";

export const toUserDto = (user: User): UserDto => ({
  id: user.id,
  username: user.username,
  display_name: user.displayName,
  email: user.email,
  role: user.role,
  status: user.status,
  created_at: user.createdAt.toISOString(),
});

export const toSessionDto = (session: IssuedSession): SessionDto => ({
  access_token: session.accessToken,
  refresh_token: session.refreshToken,
  token_type: "Bearer",
  expires_in: session.expiresIn,
  user: toUserDto(session.user),
});

const clientPlatforms = ["ios", "android", "web"] as const;

/** A live session in its owner's list (a platform the contract does not name shows as null). */
export const toAccountSessionDto = (session: ListedSession): AccountSessionDto => ({
  id: session.id,
  created_at: session.createdAt.toISOString(),
  last_used_at: session.lastUsedAt.toISOString(),
  platform: clientPlatforms.find((platform) => platform === session.platform) ?? null,
  user_agent: session.userAgent,
  address_hint: session.addressHint,
  current: session.current,
});
