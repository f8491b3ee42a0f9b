import type { AccountSessionDto, DataExportDto, SessionDto, UserDto } from "@agora/contracts/identity";
import { devicePlatformSchema } from "@agora/contracts/notifications";
import type { DataExportView } from "@agora/domain/identity/get-data-export";
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

/** A live session in its owner's list (a platform the contract does not name shows as null). */
export const toAccountSessionDto = (session: ListedSession): AccountSessionDto => ({
  id: session.id,
  created_at: session.createdAt.toISOString(),
  last_used_at: session.lastUsedAt.toISOString(),
  platform: devicePlatformSchema.safeParse(session.platform).data ?? null,
  user_agent: session.userAgent,
  address_hint: session.addressHint,
  current: session.current,
});

export const toDataExportDto = (view: DataExportView): DataExportDto => ({
  id: view.export?.id ?? null,
  status: view.status,
  requested_at: view.export?.requestedAt.toISOString() ?? null,
  ready_at:
    view.status === "ready" || view.status === "expired"
      ? (view.export?.readyAt?.toISOString() ?? null)
      : null,
  expires_at: view.export?.expiresAt?.toISOString() ?? null,
  size_bytes: view.status === "ready" ? (view.export?.sizeBytes ?? null) : null,
  download_url: view.download?.url ?? null,
  download_url_expires_at: view.download?.expiresAt.toISOString() ?? null,
});
