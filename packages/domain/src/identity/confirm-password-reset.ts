import { limitAuthRequestsByIp, normalizeEmail } from "./guards";
import { CODE_POLICY, type IdentityDeps } from "./identity.deps";
import { InvalidCodeError } from "./identity.errors";
import { hashCode } from "./secrets";

/**
 * Consumes the reset code, sets the new password and revokes every session of the account, in
 * one transaction (422 invalid_code when the code does not hold).
 */
export const confirmPasswordReset = async (
  deps: IdentityDeps,
  input: { email: string; code: string; password: string; clientIp: string },
): Promise<void> => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const { repos, uow, clock, passwords, settings } = deps;
  const user = await repos.users.findByEmail(normalizeEmail(input.email));
  if (user?.status !== "active") {
    throw new InvalidCodeError(422);
  }
  const now = clock.now();
  const codeHash = hashCode(settings.codeKey, user.id, "reset", input.code);
  const passwordHash = await passwords.hash(input.password);
  const accepted = await uow.run(async (tx) => {
    const attempt = await tx.codes.attempt(user.id, "reset", codeHash, now, CODE_POLICY.maxAttempts);
    if (attempt !== "accepted") {
      return false;
    }
    await tx.users.setPasswordHash(user.id, passwordHash, now);
    await tx.sessions.revokeAllForUser(user.id, "password_reset", now);

    return true;
  });
  if (!accepted) {
    throw new InvalidCodeError(422);
  }
};
