import { limitAuthRequestsByIp, normalizeEmail } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { requestCodeMail } from "./request-code-mail";

/**
 * Queues a new verification code mail (202 whatever the address): the worker mails it only to an
 * account pending verification, outside the cooldown. Inside the cooldown nothing is mailed and the
 * answer is still 202, so a resend cannot tell a pending account from an unknown address.
 */
export const resendVerification = async (deps: IdentityDeps, input: { email: string; clientIp: string }) => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  await requestCodeMail(
    deps,
    await deps.repos.users.findByEmail(normalizeEmail(input.email)),
    "verification",
  );
};
