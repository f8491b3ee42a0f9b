import { AppError, RateLimitedError } from "../shared/app-error";
import { limitAuthRequestsByIp, normalizeEmail } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { sendCode } from "./send-code";

export type ResetRequestOutcome = "sent" | "no_account" | "cooldown" | "mail_failed";

/**
 * Mails a reset code to an active account. The answer is 202 whatever happens, so it never tells
 * whether the account exists: inside the cooldown nothing is mailed, and a mail failure is only
 * reported to the caller (for the log), not to the client.
 */
export const requestPasswordReset = async (
  deps: IdentityDeps,
  input: { email: string; clientIp: string },
): Promise<ResetRequestOutcome> => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const user = await deps.repos.users.findByEmail(normalizeEmail(input.email));
  if (user?.status !== "active") {
    return "no_account";
  }
  try {
    await sendCode(deps, user, "reset");

    return "sent";
  } catch (error) {
    if (error instanceof RateLimitedError) {
      return "cooldown";
    }
    if (error instanceof AppError && error.code === "email_unavailable") {
      return "mail_failed";
    }
    throw error;
  }
};
