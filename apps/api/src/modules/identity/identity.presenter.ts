import type { SessionDto, UserDto } from "@agora/contracts/identity";
import type { IssuedSession, User } from "@agora/domain/identity/identity.types";

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
