import { limitAuthRequestsByIp, normalizeEmail } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { requestCodeMail } from "./request-code-mail";

/**
 * Queues a new sign-in code mail for a sign-in in progress (202 whatever the address). The worker
 * mails it only to an active account holding a live code issued after a correct password, and
 * outside the cooldown, so a resend can never start a sign-in without the password, and its
 * answer says nothing about the account.
 */
export const resendLoginCode = async (deps: IdentityDeps, input: { email: string; clientIp: string }) => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  await requestCodeMail(deps, await deps.repos.users.findByEmail(normalizeEmail(input.email)), "sign_in");
};
