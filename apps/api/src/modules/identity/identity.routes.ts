import { successEnvelope } from "@agora/contracts/envelope";
import {
  acceptedSchema,
  codeSentSchema,
  deletedAccountSchema,
  emailRequestSchema,
  loggedOutSchema,
  loginRequestSchema,
  loginVerifyRequestSchema,
  passwordChangedSchema,
  passwordResetConfirmSchema,
  refreshRequestSchema,
  registerRequestSchema,
  registerResponseSchema,
  sessionSchema,
  updateMeRequestSchema,
  userSchema,
  verifiedSchema,
  verifyEmailRequestSchema,
} from "@agora/contracts/identity";
import { confirmPasswordReset } from "@agora/domain/identity/confirm-password-reset";
import { deleteMe } from "@agora/domain/identity/delete-me";
import { getMe } from "@agora/domain/identity/get-me";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { logout } from "@agora/domain/identity/logout";
import { refreshSession } from "@agora/domain/identity/refresh-session";
import { registerUser } from "@agora/domain/identity/register-user";
import { requestPasswordReset } from "@agora/domain/identity/request-password-reset";
import { resendLoginCode } from "@agora/domain/identity/resend-login-code";
import { resendVerification } from "@agora/domain/identity/resend-verification";
import { startLogin } from "@agora/domain/identity/start-login";
import { updateMe } from "@agora/domain/identity/update-me";
import { verifyEmail } from "@agora/domain/identity/verify-email";
import { verifyLogin } from "@agora/domain/identity/verify-login";
import { createRoute } from "@hono/zod-openapi";
import { actorOf, clientIp, requireAuth } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import { toSessionDto, toUserDto } from "./identity.presenter";

const tags = ["Accounts and sessions"];
const secured = [{ bearerAuth: [] }];

export type IdentityRoutesDeps = { identity: IdentityDeps; trustProxy: boolean };

export const createIdentityRoutes = ({ identity, trustProxy }: IdentityRoutesDeps) => {
  const auth = requireAuth(identity);

  const register = createRoute({
    method: "post",
    path: "/register",
    tags,
    summary: "Create an account (pending email verification)",
    description:
      "Creates the account and mails a 6-digit verification code (valid 30 minutes, 5 tries) while the " +
      "client waits: when the mail cannot be sent the answer is 503 `email_unavailable` and no account is " +
      "kept, so the same registration can be retried. Registration never tells whether an email has an " +
      "account: a taken email also answers 201 with a `user_id`, after the same work, and its owner gets a " +
      '"someone tried to register" mail instead of a code (that id belongs to no account; verifying it ' +
      "answers 422 `invalid_code`). A taken username is 409 `username_taken`, decided on the username " +
      "alone. 429 `rate_limited` (with `Retry-After`) past `RATE_LIMIT_REGISTER_PER_EMAIL` registrations " +
      "of the email per hour, or `RATE_LIMIT_AUTH_PER_IP` requests from the address in 15 minutes. 503 " +
      "`service_unavailable` (with `Retry-After`) when every password-hashing slot is busy.",
    request: body(registerRequestSchema),
    responses: {
      201: json(
        successEnvelope(registerResponseSchema),
        "Account created, pending verification (or the email was taken).",
      ),
      ...errors(
        "username_taken",
        "validation_failed",
        "rate_limited",
        "email_unavailable",
        "service_unavailable",
      ),
    },
  });

  const verify = createRoute({
    method: "post",
    path: "/verify-email",
    tags,
    summary: "Verify the email address with the mailed code",
    description:
      "A wrong, expired or spent code is 422 `invalid_code`. 20 wrong verification codes for an account " +
      "within 24 hours (over any number of codes) lock verification for the rest of those 24 hours: no " +
      "code is sent or accepted (the answer stays `invalid_code`) and the owner is told by mail.",
    request: body(verifyEmailRequestSchema),
    responses: {
      200: json(successEnvelope(verifiedSchema), "The account is active."),
      ...errors("validation_failed", [422, "invalid_code"], "rate_limited"),
    },
  });

  const resendVerificationRoute = createRoute({
    method: "post",
    path: "/verification/resend",
    tags,
    summary: "Mail a new verification code",
    description:
      "Always 202 (except the per-address limit's 429), whatever the account: the request is queued and " +
      "the mail sent by the outbox worker shortly after, only to an account pending verification and not " +
      "within the cooldown of its last code (60 s for the first three codes of a day, then doubling up to " +
      "an hour). Status and timing are the same for an unknown email, so a resend reveals nothing.",
    request: body(emailRequestSchema),
    responses: {
      202: json(successEnvelope(acceptedSchema), "Accepted."),
      ...errors("validation_failed", "rate_limited"),
    },
  });

  const login = createRoute({
    method: "post",
    path: "/login",
    tags,
    summary: "Check email and password, then mail a sign-in code",
    description:
      "No session is created: tokens come from `/login/verify` with the mailed 6-digit code (valid 15 " +
      "minutes, 5 tries). An unknown email and a wrong password answer the same 401 " +
      "`invalid_credentials` in the same time. A right password on an unverified account is 403 " +
      "`email_not_verified`, on a suspended one 403 `account_suspended`. The code is mailed while the " +
      "client waits: 503 `email_unavailable` when it cannot be sent (no code kept). 429 `rate_limited` " +
      "(with `Retry-After`) within the cooldown of the last sign-in code (60 s for the first three codes " +
      "of a day, then doubling up to an hour), while sign-in codes are locked after 20 wrong ones in 24 " +
      "hours, after 10 sign-in tries for the account in 15 minutes (every try counts; the right password " +
      "clears the count), or past `RATE_LIMIT_AUTH_PER_IP` requests from the address in 15 minutes. 503 " +
      "`service_unavailable` (with `Retry-After`) when every password-hashing slot is busy.",
    request: body(loginRequestSchema),
    responses: {
      202: json(successEnvelope(codeSentSchema), "Code sent; no session yet."),
      ...errors(
        "invalid_credentials",
        "email_not_verified",
        "account_suspended",
        "validation_failed",
        "rate_limited",
        "email_unavailable",
        "service_unavailable",
      ),
    },
  });

  const loginVerify = createRoute({
    method: "post",
    path: "/login/verify",
    tags,
    summary: "Exchange the sign-in code for a session",
    description:
      "The code works once; a wrong, expired or spent code is 401 `invalid_code`. 20 wrong sign-in codes " +
      "for an account within 24 hours (over any number of codes) lock sign-in codes for the rest of those " +
      "24 hours: no code is sent (`/login` answers 429) or accepted, and the owner is told by mail.",
    request: body(loginVerifyRequestSchema),
    responses: {
      200: json(successEnvelope(sessionSchema), "Session created."),
      ...errors([401, "invalid_code"], "validation_failed", "rate_limited"),
    },
  });

  const resendLogin = createRoute({
    method: "post",
    path: "/login/otp/resend",
    tags,
    summary: "Mail a new sign-in code",
    description:
      "Always 202 (except the per-address limit's 429), whatever the account: the request is queued and " +
      "the mail sent by the outbox worker shortly after, only for an active account with a sign-in in " +
      "progress (a live code issued after a correct password), so a resend never starts a sign-in on its " +
      "own, and not within the cooldown of the last sign-in code. Status and timing reveal nothing.",
    request: body(emailRequestSchema),
    responses: {
      202: json(successEnvelope(acceptedSchema), "Accepted."),
      ...errors("validation_failed", "rate_limited"),
    },
  });

  const refresh = createRoute({
    method: "post",
    path: "/refresh",
    tags,
    summary: "Rotate the refresh token",
    description:
      "Refresh tokens are single-use. The same token presented again within `REFRESH_REUSE_GRACE_SECONDS` " +
      "(default 10) of its rotation still gets a valid session in the same chain; later, it is treated as " +
      "theft: the whole chain is revoked (its newest token too) and the answer is 401. A session has an " +
      "absolute lifetime (`SESSION_MAX_AGE_SECONDS`, default 90 days from sign-in) that rotation does not " +
      "extend: refresh tokens never outlive it, and past it the answer is 401 and the user signs in again.",
    request: body(refreshRequestSchema),
    responses: {
      200: json(successEnvelope(sessionSchema), "New access and refresh tokens."),
      ...errors("invalid_refresh_token", "validation_failed"),
    },
  });

  const logoutRoute = createRoute({
    method: "post",
    path: "/logout",
    tags,
    summary: "Revoke the session of a refresh token",
    description: "The session's refresh tokens and its access tokens stop working at once.",
    request: body(refreshRequestSchema),
    responses: {
      200: json(successEnvelope(loggedOutSchema), "Signed out."),
      ...errors("invalid_refresh_token", "validation_failed"),
    },
  });

  const me = createRoute({
    method: "get",
    path: "/me",
    tags,
    summary: "The current user",
    security: secured,
    middleware: [auth] as const,
    responses: { 200: json(successEnvelope(userSchema), "The caller's account."), ...errors("unauthorized") },
  });

  const updateMeRoute = createRoute({
    method: "patch",
    path: "/me",
    tags,
    summary: "Change username and display name",
    security: secured,
    middleware: [auth] as const,
    request: body(updateMeRequestSchema),
    responses: {
      200: json(successEnvelope(userSchema), "Updated."),
      ...errors("unauthorized", "username_taken", "validation_failed"),
    },
  });

  const deleteMeRoute = createRoute({
    method: "delete",
    path: "/me",
    tags,
    summary: "Delete the account",
    description:
      "The account is marked deleted and scrubbed (email, username, name, password; both become free to " +
      "register again); every session is revoked, so access tokens fail on the next request.",
    security: secured,
    middleware: [auth] as const,
    responses: { 200: json(successEnvelope(deletedAccountSchema), "Deleted."), ...errors("unauthorized") },
  });

  const resetRequest = createRoute({
    method: "post",
    path: "/password-reset/request",
    tags,
    summary: "Mail a password reset code",
    description:
      "Always 202, never revealing whether the account exists: the same work is done for any email (the " +
      "request is queued), and the outbox worker mails a code (valid 30 minutes, 5 tries) shortly after, " +
      "only to an active account, not within the cooldown of the previous reset code (60 s for the first " +
      "three of a day, then doubling up to an hour) and not while reset codes are locked. A mail the " +
      "provider refuses is retried by the worker with backoff. 429 `rate_limited` (with `Retry-After`) " +
      "only past `RATE_LIMIT_RESET_PER_EMAIL` requests for the email per hour or `RATE_LIMIT_AUTH_PER_IP` " +
      "requests from the address in 15 minutes; both count every request alike.",
    request: body(emailRequestSchema),
    responses: {
      202: json(successEnvelope(acceptedSchema), "Accepted."),
      ...errors("validation_failed", "rate_limited"),
    },
  });

  const resetConfirm = createRoute({
    method: "post",
    path: "/password-reset/confirm",
    tags,
    summary: "Set a new password with the reset code",
    description:
      "Every session of the account is revoked. A wrong, expired or spent code is 422 `invalid_code`; the " +
      "code is checked before the new password is hashed. 20 wrong reset codes for an account within 24 " +
      "hours lock reset codes for the rest of those 24 hours (no code is sent or accepted; the answer stays " +
      "`invalid_code`) and the owner is told by mail.",
    request: body(passwordResetConfirmSchema),
    responses: {
      200: json(successEnvelope(passwordChangedSchema), "Password changed."),
      ...errors("validation_failed", [422, "invalid_code"], "rate_limited", "service_unavailable"),
    },
  });

  return createRouter()
    .openapi(register, async (c) => {
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
    })
    .openapi(verify, async (c) => {
      const input = c.req.valid("json");
      await verifyEmail(identity, {
        userId: input.user_id,
        code: input.code,
        clientIp: clientIp(c, trustProxy),
      });

      return ok(c, { status: "verified" as const });
    })
    .openapi(resendVerificationRoute, async (c) => {
      await resendVerification(identity, {
        email: c.req.valid("json").email,
        clientIp: clientIp(c, trustProxy),
      });

      return ok(c, { status: "accepted" as const }, { status: 202 });
    })
    .openapi(login, async (c) => {
      const input = c.req.valid("json");
      await startLogin(identity, {
        email: input.email,
        password: input.password,
        clientIp: clientIp(c, trustProxy),
      });

      return ok(c, { status: "code_sent" as const }, { status: 202 });
    })
    .openapi(loginVerify, async (c) => {
      const input = c.req.valid("json");
      const session = await verifyLogin(identity, {
        email: input.email,
        code: input.code,
        clientIp: clientIp(c, trustProxy),
      });

      return ok(c, toSessionDto(session));
    })
    .openapi(resendLogin, async (c) => {
      await resendLoginCode(identity, {
        email: c.req.valid("json").email,
        clientIp: clientIp(c, trustProxy),
      });

      return ok(c, { status: "accepted" as const }, { status: 202 });
    })
    .openapi(refresh, async (c) => {
      const session = await refreshSession(identity, { refreshToken: c.req.valid("json").refresh_token });

      return ok(c, toSessionDto(session));
    })
    .openapi(logoutRoute, async (c) => {
      await logout(identity, { refreshToken: c.req.valid("json").refresh_token });

      return ok(c, { status: "logged_out" as const });
    })
    .openapi(me, async (c) => ok(c, toUserDto(await getMe(identity, actorOf(c)))))
    .openapi(updateMeRoute, async (c) => {
      const input = c.req.valid("json");
      const user = await updateMe(identity, actorOf(c), {
        username: input.username,
        displayName: input.display_name,
      });

      return ok(c, toUserDto(user));
    })
    .openapi(deleteMeRoute, async (c) => {
      const actor = actorOf(c);
      await deleteMe(identity, actor);

      return ok(c, { user_id: actor.userId, status: "deleted" as const });
    })
    .openapi(resetRequest, async (c) => {
      await requestPasswordReset(identity, {
        email: c.req.valid("json").email,
        clientIp: clientIp(c, trustProxy),
      });

      return ok(c, { status: "accepted" as const }, { status: 202 });
    })
    .openapi(resetConfirm, async (c) => {
      const input = c.req.valid("json");
      await confirmPasswordReset(identity, {
        email: input.email,
        code: input.code,
        password: input.password,
        clientIp: clientIp(c, trustProxy),
      });

      return ok(c, { status: "password_changed" as const });
    });
};
