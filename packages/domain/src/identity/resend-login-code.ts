import { enforceResendCooldown, limitAuthRequestsByIp, normalizeEmail } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { requestCodeMail } from "./request-code-mail";

/**
 * Queues a new sign-in code mail for a sign-in in progress. A second resend for the same address
 * within RESEND_COOLDOWN_SECONDS (or one right after the correct-password sign-in that mailed a
 * code) answers 429 with Retry-After, for a known and an unknown address alike; outside it the
 * answer is 202 whatever the address. The worker mails only to an active account holding a live
 * code issued after a correct password, and outside the account's code cooldown, so a resend can
 * never start a sign-in without the password, and its answer says nothing about the account.
 */
export const resendLoginCode = async (deps: IdentityDeps, input: { email: string; clientIp: string }) => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const email = normalizeEmail(input.email);
  await enforceResendCooldown(deps, "sign_in", email);
  await requestCodeMail(deps, await deps.repos.users.findByEmail(email), "sign_in");
};
