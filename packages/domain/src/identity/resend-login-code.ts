import { limitAuthRequestsByIp, normalizeEmail } from "./guards";
import { CODE_POLICY, type IdentityDeps } from "./identity.deps";
import { sendCode } from "./send-code";

/**
 * Mails a new sign-in code for a sign-in in progress: the account is active and a code issued
 * after a correct password is still live. Anything else does nothing (202), so a resend can never
 * start a sign-in without the password.
 */
export const resendLoginCode = async (deps: IdentityDeps, input: { email: string; clientIp: string }) => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const { repos, clock } = deps;
  const user = await repos.users.findByEmail(normalizeEmail(input.email));
  if (user?.status !== "active") {
    return;
  }
  const pending = await repos.codes.find(user.id, "sign_in");
  const now = clock.now();
  if (
    !pending ||
    pending.consumedAt ||
    pending.expiresAt <= now ||
    pending.attempts >= CODE_POLICY.maxAttempts
  ) {
    return;
  }
  await sendCode(deps, user, "sign_in");
};
