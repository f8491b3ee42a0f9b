import { z } from "zod";
import { timestampSchema } from "./common";
import { mediaAssetIdsSchema, mediaItemSchema } from "./media";
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
  })
  .meta({ example: { email: "ada@example.com", code: "123456" } });

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
    errors: ["unauthorized", "username_taken", "validation_failed", "storage_unavailable"],
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
