import { z } from "zod";
import { timestampSchema } from "./common";
import { mediaAssetIdsSchema, mediaItemSchema } from "./media";
import { devicePlatformSchema } from "./notifications";
import { defineOperations } from "./operation";

export const roleSchema = z.enum(["member", "provider", "accountant", "admin"]);
export const userStatusSchema = z.enum(["pending_verification", "active", "suspended", "deleted"]);

const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email("must be an email address"))
  .meta({ description: "Email address; compared trimmed and lower-cased.", example: "ada@example.com" });

const username = z
  .string()
  .trim()
  .min(3)
  .max(32)
  .regex(/^[\p{L}\p{N}._-]+$/u, "may contain letters, digits, '.', '_' and '-'")
  .meta({
    description: "3-32 letters, digits, '.', '_' or '-'; unique case-insensitively.",
    // The pattern as JSON Schema states it (ECMA-262 with Unicode classes), without the regex's `/u`.
    pattern: "^[\\p{L}\\p{N}._-]+$",
    example: "ada_l",
  });

const newPassword = z.string().min(8).max(128).meta({ description: "8-128 characters." });

/** Verification and reset codes: 4-8 characters (the service mails 6 digits). */
const mailedCode = z.string().min(4).max(8).meta({ example: "042137" });

export const userSchema = z
  .object({
    id: z.string(),
    username: z.string(),
    display_name: z.string(),
    email: z.string(),
    role: roleSchema,
    status: userStatusSchema,
    created_at: timestampSchema,
  })
  .meta({ id: "User" });
export type UserDto = z.infer<typeof userSchema>;

export const meSchema = userSchema
  .extend({
    media: mediaItemSchema.array().meta({ description: "The avatar: one image, or none (an empty array)." }),
  })
  .meta({ id: "Me", description: "The caller's account, with its avatar." });

export const registerRequestSchema = z
  .object({
    username,
    email,
    password: newPassword,
    display_name: z.string().trim().max(120).optional(),
    locale: z.string().trim().min(2).max(35).optional().meta({ description: "BCP 47 tag, e.g. en-GB." }),
  })
  .meta({
    example: {
      username: "ada_l",
      email: "ada@example.com",
      password: "correct horse battery",
      display_name: "Ada Lovelace",
      locale: "en-GB",
    },
  });
export const registerResponseSchema = z.object({ user_id: z.string() });

export const verifyEmailRequestSchema = z
  .object({ user_id: z.string().min(1), code: mailedCode })
  .meta({ example: { user_id: "01935c2e-7f3a-7b41-9c2d-3e4f5a6b7c8d", code: "123456" } });

export const emailRequestSchema = z.object({ email }).meta({ example: { email: "ada@example.com" } });

export const loginRequestSchema = z
  .object({
    email,
    password: z.string().min(1).max(1024).meta({ description: "Any wrong password is 401, never 422." }),
  })
  .meta({ example: { email: "ada@example.com", password: "correct horse battery" } });
export const codeSentSchema = z.object({ status: z.literal("code_sent") });

export const loginVerifyRequestSchema = z
  .object({
    email,
    code: z
      .string()
      .length(6)
      .meta({ description: "The 6-digit sign-in code from the mail.", example: "042137" }),
    platform: devicePlatformSchema.optional().meta({
      description:
        "What the client runs on, kept with the session for its owner's session list (optional; SPEC's body is `email` and `code`).",
    }),
  })
  .meta({ example: { email: "ada@example.com", code: "123456", platform: "ios" } });

export const sessionSchema = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int().meta({ description: "Access token lifetime in seconds." }),
    user: userSchema,
  })
  .meta({ id: "Session" });
export type SessionDto = z.infer<typeof sessionSchema>;

export const refreshRequestSchema = z
  .object({ refresh_token: z.string().min(1).max(512) })
  .meta({ example: { refresh_token: "rt_3q2+7w8p5Kc9x4Zb1Nf6Hj0Lm2Qs8Vt" } });

export const updateMeRequestSchema = z
  .object({
    username,
    display_name: z.string().trim().min(1).max(100),
    media_asset_ids: mediaAssetIdsSchema(1, "avatar").optional(),
  })
  .meta({ example: { username: "ada_l", display_name: "Ada L." } });

export const deletedAccountSchema = z.object({ user_id: z.string(), status: z.literal("deleted") });

export const passwordResetConfirmSchema = z
  .object({ email, code: mailedCode, password: newPassword })
  .meta({ example: { email: "ada@example.com", code: "123456", password: "a new long passphrase" } });

export const accountSessionSchema = z
  .object({
    id: z.string(),
    created_at: timestampSchema.meta({ description: "Sign-in." }),
    last_used_at: timestampSchema.meta({
      description: "The last request made with the session, to the minute (seconds are zero).",
    }),
    platform: devicePlatformSchema
      .nullable()
      .meta({ description: "As the client sent it at sign-in (`platform`); null when it sent none." }),
    user_agent: z
      .string()
      .nullable()
      .meta({ description: "The sign-in request's `User-Agent`, at most 256 characters; null without one." }),
    address_hint: z.string().nullable().meta({
      description:
        "The network the sign-in came from, never the address: its /24 (IPv4, `203.0.113.0/24`) or /48 (IPv6, `2001:db8:85a3::/48`); null when unknown.",
      example: "203.0.113.0/24",
    }),
    current: z.boolean().meta({ description: "True for the session making this request." }),
  })
  .meta({ id: "AccountSession", description: "A live session of the caller's account." });
export type AccountSessionDto = z.infer<typeof accountSessionSchema>;

export const sessionIdParamSchema = z.object({ id: z.string().meta({ description: "A session id." }) });
export const sessionEndedSchema = z.object({ id: z.string(), status: z.literal("ended") });
export const otherSessionsEndedSchema = z.object({
  ended: z.number().int().nonnegative().meta({ description: "How many sessions this request ended." }),
});

export const changePasswordRequestSchema = z
  .object({
    current_password: z
      .string()
      .min(1)
      .max(1024)
      .meta({ description: "The account's password now; a wrong one is 401, never 422." }),
    new_password: newPassword,
  })
  .meta({ example: { current_password: "correct horse battery", new_password: "a new long passphrase" } });
export const passwordChangedBySessionSchema = z.object({
  status: z.literal("password_changed"),
  sessions_ended: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: "How many other sessions the change ended (the caller's stays)." }),
});

export const acceptedSchema = z.object({ status: z.literal("accepted") });
export const loggedOutSchema = z.object({ status: z.literal("logged_out") });
export const verifiedSchema = z.object({ status: z.literal("verified") });
export const passwordChangedSchema = z.object({ status: z.literal("password_changed") });

export const emailChangeRequestSchema = z
  .object({
    new_email: email,
    password: z
      .string()
      .min(1)
      .max(1024)
      .meta({ description: "The account's password; a wrong one is 401, never 422." }),
  })
  .meta({ example: { new_email: "ada.lovelace@example.com", password: "correct horse battery" } });
export const emailChangeVerifySchema = z
  .object({ code: mailedCode.meta({ description: "The code mailed to the new address." }) })
  .meta({ example: { code: "042137" } });
export const emailChangedSchema = z.object({ status: z.literal("email_changed") });
export const emailUndoRequestSchema = z
  .object({
    token: z
      .string()
      .min(1)
      .max(128)
      .meta({ description: "The `token` of the link mailed to the old address." }),
  })
  .meta({ example: { token: "3q2-7wAAAAB3q2-7wAAAAB3q2-7wAAAAB3q2-7wAAA" } });
export const emailRestoredSchema = z.object({ status: z.literal("email_restored") });

const tags = ["Accounts and sessions"];

/** Accounts and sessions: registration, sign-in with a mailed code, the caller's account. */
export const dataExportStatusSchema = z.enum(["none", "pending", "ready", "expired", "failed"]).meta({
  description:
    "`none`: never requested; `pending`: being built; `ready`: downloadable (`download_url`); `expired`: its day is over and it was deleted; `failed`: it could not be built.",
});

export const dataExportSchema = z
  .object({
    id: z.string().nullable().meta({ description: "Null when none was ever requested." }),
    status: dataExportStatusSchema,
    requested_at: timestampSchema.nullable(),
    ready_at: timestampSchema.nullable(),
    expires_at: timestampSchema
      .nullable()
      .meta({ description: "Until when it can be downloaded (24 hours after it was ready)." }),
    size_bytes: z.number().int().nullable(),
    download_url: z
      .string()
      .nullable()
      .meta({ description: "While ready: a presigned GET URL of the JSON document, valid 5 minutes." }),
    download_url_expires_at: timestampSchema.nullable(),
  })
  .meta({
    id: "DataExport",
    description: "The caller's newest data export.",
    example: {
      id: "01935c2e-7f3a-7b41-9c2d-3e4f5a6b7c8d",
      status: "pending",
      requested_at: "2026-12-11T09:00:00.000Z",
      ready_at: null,
      expires_at: null,
      size_bytes: null,
      download_url: null,
      download_url_expires_at: null,
    },
  });
export type DataExportDto = z.infer<typeof dataExportSchema>;

export const dataExportDownloadQuerySchema = z.object({
  token: z.string().min(1).max(100).meta({ description: "The token of the mailed link." }),
});

export const identityOperations = defineOperations({
  authRegister: {
    method: "POST",
    path: "/api/v1/auth/register",
    auth: "public",
    tags,
    summary: "Create an account (pending email verification)",
    body: registerRequestSchema,
    responses: {
      201: {
        description: "Account created, pending verification (or the email was taken).",
        data: registerResponseSchema,
      },
    },
    errors: [
      "username_taken",
      "validation_failed",
      "rate_limited",
      "email_unavailable",
      "service_unavailable",
      "content_blocked",
    ],
  },
  authVerifyEmail: {
    method: "POST",
    path: "/api/v1/auth/verify-email",
    auth: "public",
    tags,
    summary: "Verify the email address with the mailed code",
    body: verifyEmailRequestSchema,
    responses: { 200: { description: "The account is active.", data: verifiedSchema } },
    errors: ["validation_failed", [422, "invalid_code"], "rate_limited"],
  },
  authVerificationResend: {
    method: "POST",
    path: "/api/v1/auth/verification/resend",
    auth: "public",
    tags,
    summary: "Mail a new verification code",
    body: emailRequestSchema,
    responses: { 202: { description: "Accepted.", data: acceptedSchema } },
    errors: ["validation_failed", "rate_limited"],
  },
  authLogin: {
    method: "POST",
    path: "/api/v1/auth/login",
    auth: "public",
    tags,
    summary: "Check email and password, then mail a sign-in code",
    body: loginRequestSchema,
    responses: { 202: { description: "Code sent; no session yet.", data: codeSentSchema } },
    errors: [
      "invalid_credentials",
      "email_not_verified",
      "account_suspended",
      "validation_failed",
      "rate_limited",
      "email_unavailable",
      "service_unavailable",
    ],
  },
  authLoginVerify: {
    method: "POST",
    path: "/api/v1/auth/login/verify",
    auth: "public",
    tags,
    summary: "Exchange the sign-in code for a session",
    body: loginVerifyRequestSchema,
    responses: { 200: { description: "Session created.", data: sessionSchema } },
    errors: [[401, "invalid_code"], "validation_failed", "rate_limited"],
    session: "open",
  },
  authLoginCodeResend: {
    method: "POST",
    path: "/api/v1/auth/login/otp/resend",
    auth: "public",
    tags,
    summary: "Mail a new sign-in code",
    body: emailRequestSchema,
    responses: { 202: { description: "Accepted.", data: acceptedSchema } },
    errors: ["validation_failed", "rate_limited"],
  },
  authRefresh: {
    method: "POST",
    path: "/api/v1/auth/refresh",
    auth: "public",
    tags,
    summary: "Rotate the refresh token",
    body: refreshRequestSchema,
    responses: { 200: { description: "New access and refresh tokens.", data: sessionSchema } },
    errors: ["invalid_refresh_token", "validation_failed"],
    session: "open",
  },
  authLogout: {
    method: "POST",
    path: "/api/v1/auth/logout",
    auth: "public",
    tags,
    summary: "Revoke the session of a refresh token",
    body: refreshRequestSchema,
    responses: { 200: { description: "Signed out.", data: loggedOutSchema } },
    errors: ["invalid_refresh_token", "validation_failed"],
    session: "close",
  },
  authMeGet: {
    method: "GET",
    path: "/api/v1/auth/me",
    auth: "bearer",
    tags,
    summary: "The current user",
    responses: { 200: { description: "The caller's account.", data: meSchema } },
    errors: ["unauthorized"],
  },
  authMeUpdate: {
    method: "PATCH",
    path: "/api/v1/auth/me",
    auth: "bearer",
    tags,
    summary: "Change username and display name",
    body: updateMeRequestSchema,
    responses: { 200: { description: "Updated.", data: meSchema } },
    errors: ["unauthorized", "username_taken", "validation_failed", "storage_unavailable", "content_blocked"],
  },
  authMeDelete: {
    method: "DELETE",
    path: "/api/v1/auth/me",
    auth: "bearer",
    tags,
    summary: "Delete the account",
    responses: { 200: { description: "Deleted.", data: deletedAccountSchema } },
    errors: ["unauthorized", "last_admin"],
    session: "close",
  },
  authPasswordResetRequest: {
    method: "POST",
    path: "/api/v1/auth/password-reset/request",
    auth: "public",
    tags,
    summary: "Mail a password reset code",
    body: emailRequestSchema,
    responses: { 202: { description: "Accepted.", data: acceptedSchema } },
    errors: ["validation_failed", "rate_limited"],
  },
  authPasswordResetConfirm: {
    method: "POST",
    path: "/api/v1/auth/password-reset/confirm",
    auth: "public",
    tags,
    summary: "Set a new password with the reset code",
    body: passwordResetConfirmSchema,
    responses: { 200: { description: "Password changed.", data: passwordChangedSchema } },
    errors: ["validation_failed", [422, "invalid_code"], "rate_limited", "service_unavailable"],
  },
  authSessionsList: {
    method: "GET",
    path: "/api/v1/auth/sessions",
    auth: "bearer",
    tags,
    summary: "The caller's signed-in sessions",
    responses: {
      200: {
        description: "Live sessions, most recently used first (at most 100).",
        data: z.array(accountSessionSchema),
      },
    },
    errors: ["unauthorized"],
  },
  authSessionsEnd: {
    method: "DELETE",
    path: "/api/v1/auth/sessions/{id}",
    auth: "bearer",
    tags,
    summary: "End one of the caller's sessions",
    params: sessionIdParamSchema,
    responses: { 200: { description: "The session has ended.", data: sessionEndedSchema } },
    errors: ["unauthorized", "not_found"],
    writeLimit: "account_security",
  },
  authSessionsEndOthers: {
    method: "POST",
    path: "/api/v1/auth/sessions/revoke-others",
    auth: "bearer",
    tags,
    summary: "End every session but the caller's",
    responses: { 200: { description: "Every other session has ended.", data: otherSessionsEndedSchema } },
    errors: ["unauthorized"],
    repeatable: true,
    writeLimit: "account_security",
  },
  authPasswordChange: {
    method: "POST",
    path: "/api/v1/auth/password",
    auth: "bearer",
    tags,
    summary: "Change the password while signed in",
    body: changePasswordRequestSchema,
    responses: {
      200: {
        description: "Password changed; every other session has ended.",
        data: passwordChangedBySessionSchema,
      },
    },
    errors: [
      "unauthorized",
      "invalid_credentials",
      "validation_failed",
      "rate_limited",
      "service_unavailable",
    ],
    writeLimit: "account_security",
  },
  authMeExportRequest: {
    method: "POST",
    path: "/api/v1/auth/me/export",
    auth: "bearer",
    tags,
    summary: "Ask for a copy of your data",
    responses: { 202: { description: "Queued; it is built shortly.", data: dataExportSchema } },
    errors: ["unauthorized", "rate_limited"],
  },
  authMeExportGet: {
    method: "GET",
    path: "/api/v1/auth/me/export",
    auth: "bearer",
    tags,
    summary: "Your newest data export",
    responses: {
      200: { description: "Its status, with a download link while ready.", data: dataExportSchema },
    },
    errors: ["unauthorized", "storage_unavailable"],
  },
  authMeExportDownload: {
    method: "GET",
    path: "/api/v1/auth/me/export/download",
    auth: "public",
    tags,
    summary: "Download a data export by its mailed link",
    query: dataExportDownloadQuerySchema,
    responses: {
      302: { description: "Found: `Location` is a presigned GET URL of the document, valid 5 minutes." },
    },
    errors: ["not_found", "validation_failed", "rate_limited", "storage_unavailable"],
  },
  authEmailChange: {
    method: "POST",
    path: "/api/v1/auth/email",
    auth: "bearer",
    tags,
    summary: "Ask to change the email address; a code is mailed to the new one",
    body: emailChangeRequestSchema,
    responses: { 202: { description: "Accepted.", data: acceptedSchema } },
    errors: [
      "unauthorized",
      "invalid_credentials",
      "validation_failed",
      "rate_limited",
      "email_unavailable",
      "service_unavailable",
    ],
    writeLimit: "email_changes",
  },
  authEmailVerify: {
    method: "POST",
    path: "/api/v1/auth/email/verify",
    auth: "bearer",
    tags,
    summary: "Switch to the new email address with the mailed code",
    body: emailChangeVerifySchema,
    responses: { 200: { description: "The address is changed.", data: emailChangedSchema } },
    errors: ["unauthorized", "validation_failed", [422, "invalid_code"], "email_taken", "rate_limited"],
  },
  authEmailUndo: {
    method: "POST",
    path: "/api/v1/auth/email/undo",
    auth: "public",
    tags,
    summary: "Undo an email change from the link mailed to the old address",
    body: emailUndoRequestSchema,
    responses: {
      200: { description: "The old address is back; every session ended.", data: emailRestoredSchema },
    },
    errors: ["validation_failed", "invalid_token", "rate_limited"],
  },
});
