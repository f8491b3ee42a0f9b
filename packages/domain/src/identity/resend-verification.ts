import { limitAuthRequestsByIp, normalizeEmail } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { sendCode } from "./send-code";

/** Mails a new verification code when the account is pending; otherwise does nothing (202 either way). */
export const resendVerification = async (deps: IdentityDeps, input: { email: string; clientIp: string }) => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const user = await deps.repos.users.findByEmail(normalizeEmail(input.email));
  if (user?.status !== "pending_verification") {
    return;
  }
  await sendCode(deps, user, "verification");
};
