import { identityOperations } from "@agora/contracts/identity";
import { requestEmailChange, undoEmailChange, verifyEmailChange } from "@agora/domain/identity/change-email";
import { changePassword } from "@agora/domain/identity/change-password";
import { confirmPasswordReset } from "@agora/domain/identity/confirm-password-reset";
import { deleteMe } from "@agora/domain/identity/delete-me";
import { downloadDataExport, getDataExport } from "@agora/domain/identity/get-data-export";
import { getMe } from "@agora/domain/identity/get-me";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { logout } from "@agora/domain/identity/logout";
import { endOtherSessions, endSession, listSessions } from "@agora/domain/identity/manage-sessions";
import { refreshSession } from "@agora/domain/identity/refresh-session";
import { registerUser } from "@agora/domain/identity/register-user";
import { requestDataExport } from "@agora/domain/identity/request-data-export";
import { requestPasswordReset } from "@agora/domain/identity/request-password-reset";
import { resendLoginCode } from "@agora/domain/identity/resend-login-code";
import { resendVerification } from "@agora/domain/identity/resend-verification";
import { startLogin } from "@agora/domain/identity/start-login";
import { updateMe } from "@agora/domain/identity/update-me";
import { verifyEmail } from "@agora/domain/identity/verify-email";
import { verifyLogin } from "@agora/domain/identity/verify-login";
import { actorOf, clientIp } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { found, ok } from "../../http/respond";
import { toMediaItemDto } from "../media/media.presenter";
import { toAccountSessionDto, toDataExportDto, toSessionDto, toUserDto } from "./identity.presenter";

export type IdentityRoutesDeps = { identity: IdentityDeps; config: { trustProxy: boolean } };

export const identityRoutes = ({ identity, config: { trustProxy } }: IdentityRoutesDeps): Handled[] => [
  handle(identityOperations.authRegister, async (c) => {
    const input = c.req.valid("json");
    const { userId } = await registerUser(identity, {
      username: input.username,
      email: input.email,
      password: input.password,
      displayName: input.display_name,
      locale: input.locale,
      clientIp: clientIp(c, trustProxy),
    });

    return ok(c, { user_id: userId }, { status: 201 });
  }),
  handle(identityOperations.authVerifyEmail, async (c) => {
    const input = c.req.valid("json");
    await verifyEmail(identity, {
      userId: input.user_id,
      code: input.code,
      clientIp: clientIp(c, trustProxy),
    });

    return ok(c, { status: "verified" as const });
  }),
  handle(identityOperations.authVerificationResend, async (c) => {
    await resendVerification(identity, {
      email: c.req.valid("json").email,
      clientIp: clientIp(c, trustProxy),
    });

    return ok(c, { status: "accepted" as const }, { status: 202 });
  }),
  handle(identityOperations.authLogin, async (c) => {
    const input = c.req.valid("json");
    await startLogin(identity, {
      email: input.email,
      password: input.password,
      clientIp: clientIp(c, trustProxy),
    });

    return ok(c, { status: "code_sent" as const }, { status: 202 });
  }),
  handle(identityOperations.authLoginVerify, async (c) => {
    const input = c.req.valid("json");
    const session = await verifyLogin(identity, {
      email: input.email,
      code: input.code,
      clientIp: clientIp(c, trustProxy),
      platform: input.platform,
      userAgent: c.req.header("user-agent"),
    });

    return ok(c, toSessionDto(session));
  }),
  handle(identityOperations.authLoginCodeResend, async (c) => {
    await resendLoginCode(identity, {
      email: c.req.valid("json").email,
      clientIp: clientIp(c, trustProxy),
    });

    return ok(c, { status: "accepted" as const }, { status: 202 });
  }),
  handle(identityOperations.authRefresh, async (c) => {
    const session = await refreshSession(identity, { refreshToken: c.req.valid("json").refresh_token });

    return ok(c, toSessionDto(session));
  }),
  handle(identityOperations.authLogout, async (c) => {
    await logout(identity, { refreshToken: c.req.valid("json").refresh_token });

    return ok(c, { status: "logged_out" as const });
  }),
  handle(identityOperations.authMeGet, async (c) => {
    const { user, media } = await getMe(identity, actorOf(c));

    return ok(c, { ...toUserDto(user), media: media.map(toMediaItemDto) });
  }),
  handle(identityOperations.authMeUpdate, async (c) => {
    const input = c.req.valid("json");
    const { user, media } = await updateMe(identity, actorOf(c), {
      username: input.username,
      displayName: input.display_name,
      mediaAssetIds: input.media_asset_ids,
    });

    return ok(c, { ...toUserDto(user), media: media.map(toMediaItemDto) });
  }),
  handle(identityOperations.authMeDelete, async (c) => {
    const actor = actorOf(c);
    await deleteMe(identity, actor);

    return ok(c, { user_id: actor.userId, status: "deleted" as const });
  }),
  handle(identityOperations.authPasswordResetRequest, async (c) => {
    await requestPasswordReset(identity, {
      email: c.req.valid("json").email,
      clientIp: clientIp(c, trustProxy),
    });

    return ok(c, { status: "accepted" as const }, { status: 202 });
  }),
  handle(identityOperations.authPasswordResetConfirm, async (c) => {
    const input = c.req.valid("json");
    await confirmPasswordReset(identity, {
      email: input.email,
      code: input.code,
      password: input.password,
      clientIp: clientIp(c, trustProxy),
    });

    return ok(c, { status: "password_changed" as const });
  }),
  handle(identityOperations.authSessionsList, async (c) => {
    const sessions = await listSessions(identity, actorOf(c));

    return ok(c, sessions.map(toAccountSessionDto));
  }),
  handle(identityOperations.authSessionsEnd, async (c) => {
    const { id } = c.req.valid("param");
    await endSession(identity, actorOf(c), id);

    return ok(c, { id, status: "ended" as const });
  }),
  handle(identityOperations.authSessionsEndOthers, async (c) => {
    const ended = await endOtherSessions(identity, actorOf(c));

    return ok(c, { ended });
  }),
  handle(identityOperations.authPasswordChange, async (c) => {
    const input = c.req.valid("json");
    const { sessionsEnded } = await changePassword(identity, actorOf(c), {
      currentPassword: input.current_password,
      newPassword: input.new_password,
      clientIp: clientIp(c, trustProxy),
    });

    return ok(c, { status: "password_changed" as const, sessions_ended: sessionsEnded });
  }),
  handle(identityOperations.authMeExportRequest, async (c) => {
    const exported = await requestDataExport(identity, actorOf(c));

    return ok(c, toDataExportDto({ export: exported, status: "pending", download: null }), { status: 202 });
  }),
  handle(identityOperations.authMeExportGet, async (c) =>
    ok(c, toDataExportDto(await getDataExport(identity, actorOf(c)))),
  ),
  handle(identityOperations.authMeExportDownload, async (c) => {
    return found(c, await downloadDataExport(identity, c.req.valid("query").token, clientIp(c, trustProxy)));
  }),
  handle(identityOperations.authEmailChange, async (c) => {
    const input = c.req.valid("json");
    await requestEmailChange(identity, actorOf(c), {
      newEmail: input.new_email,
      password: input.password,
      clientIp: clientIp(c, trustProxy),
    });

    return ok(c, { status: "accepted" as const }, { status: 202 });
  }),
  handle(identityOperations.authEmailVerify, async (c) => {
    await verifyEmailChange(identity, actorOf(c), {
      code: c.req.valid("json").code,
      clientIp: clientIp(c, trustProxy),
    });

    return ok(c, { status: "email_changed" as const });
  }),
  handle(identityOperations.authEmailUndo, async (c) => {
    await undoEmailChange(identity, { token: c.req.valid("json").token, clientIp: clientIp(c, trustProxy) });

    return ok(c, { status: "email_restored" as const });
  }),
];
