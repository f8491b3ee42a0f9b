import { z } from "zod";
import { timestampSchema } from "./common";

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

export const registerRequestSchema = z.object({
  username,
  email,
  password: newPassword,
  display_name: z.string().trim().max(120).optional(),
  locale: z.string().trim().min(2).max(35).optional().meta({ description: "BCP 47 tag, e.g. en-GB." }),
});
export const registerResponseSchema = z.object({ user_id: z.string() });

export const verifyEmailRequestSchema = z.object({ user_id: z.string().min(1), code: mailedCode });

export const emailRequestSchema = z.object({ email });

export const loginRequestSchema = z.object({
  email,
  password: z.string().min(1).max(1024).meta({ description: "Any wrong password is 401, never 422." }),
});
export const codeSentSchema = z.object({ status: z.literal("code_sent") });

export const loginVerifyRequestSchema = z.object({
  email,
  code: z
    .string()
    .length(6)
    .meta({ description: "The 6-digit sign-in code from the mail.", example: "042137" }),
});

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

export const refreshRequestSchema = z.object({ refresh_token: z.string().min(1).max(512) });

export const updateMeRequestSchema = z.object({
  username,
  display_name: z.string().trim().min(1).max(100),
});

export const deletedAccountSchema = z.object({ user_id: z.string(), status: z.literal("deleted") });

export const passwordResetConfirmSchema = z.object({ email, code: mailedCode, password: newPassword });

export const acceptedSchema = z.object({ status: z.literal("accepted") });
export const loggedOutSchema = z.object({ status: z.literal("logged_out") });
export const verifiedSchema = z.object({ status: z.literal("verified") });
export const passwordChangedSchema = z.object({ status: z.literal("password_changed") });
