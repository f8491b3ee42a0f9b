import { limitAuthRequestsByIp, limitRequestsByEmail, normalizeEmail } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { requestCodeMail } from "./request-code-mail";

/**
 * Queues a reset code mail. The answer (202) and the work are the same whether or not the address
 * has an account: the code is generated and mailed by the outbox worker, only to an active account,
 * outside the cooldown and while the purpose is not locked. Only the per-address and per-email
 * limits answer 429, and they count every request alike.
 */
export const requestPasswordReset = async (
  deps: IdentityDeps,
  input: { email: string; clientIp: string },
): Promise<void> => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const email = normalizeEmail(input.email);
  await limitRequestsByEmail(deps, "reset", email, deps.settings.resetRequestsPerEmail);
  await requestCodeMail(deps, await deps.repos.users.findByEmail(email), "reset");
};
