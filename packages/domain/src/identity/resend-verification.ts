import { enforceResendCooldown, limitAuthRequestsByIp, normalizeEmail } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { requestCodeMail } from "./request-code-mail";

/**
 * Queues a new verification code mail. A second resend for the same address within
 * RESEND_COOLDOWN_SECONDS (or one right after a registration with that address, taken or not)
 * answers 429 with Retry-After, for a known and an unknown address alike; outside it the answer is
 * 202 and the worker mails only to an account pending verification, so a resend cannot tell a
 * pending account from an unknown address.
 */
export const resendVerification = async (deps: IdentityDeps, input: { email: string; clientIp: string }) => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const email = normalizeEmail(input.email);
  await enforceResendCooldown(deps, "verification", email);
  await requestCodeMail(deps, await deps.repos.users.findByEmail(email), "verification");
};
