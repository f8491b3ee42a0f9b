import { attemptCode } from "./code-limits";
import { limitAuthRequestsByIp, normalizeEmail } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { InvalidCodeError } from "./identity.errors";
import { codeHashes } from "./secrets";

/** Stands in for the account of an unknown address, so both paths run the same statements. */
const NO_ACCOUNT = "00000000-0000-0000-0000-000000000000";

/**
 * Consumes the reset code, then sets the new password and revokes every session of the account,
 * in one transaction (422 invalid_code when the code does not hold). An account still pending
 * verification is activated too: the code proves control of the mailbox. The code is checked first:
 * the new password is hashed only for a caller who holds the right code, so wrong guesses cost
 * no argon2 work. An unknown address runs the same code check (against no row) as a known one.
 */
export const confirmPasswordReset = async (
  deps: IdentityDeps,
  input: { email: string; code: string; password: string; clientIp: string },
): Promise<void> => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const { repos, uow, clock, passwords, settings } = deps;
  const email = normalizeEmail(input.email);
  const user = await repos.users.findByEmail(email);
  const userId = user?.status === "active" || user?.status === "pending_verification" ? user.id : NO_ACCOUNT;
  const now = clock.now();
  const hashes = codeHashes(settings.codeKey, userId, "reset", input.code);
  const accepted = await uow.run(async (tx) => {
    const attempt = await attemptCode(tx, {
      userId,
      purpose: "reset",
      codeHashes: hashes,
      now,
      unmatchedKey: `codes:unmatched:reset:${email}`,
    });
    if (attempt !== "accepted") {
      return false;
    }
    // Inside the transaction: if hashing is refused (503, busy) the code is not spent.
    const passwordHash = await passwords.hash(input.password);
    await tx.users.setPasswordHash(userId, passwordHash, now);
    // The code proved the mailbox: a registration still pending is verified by it, with the new
    // password (whoever registered it first, and with whatever password, loses it).
    await tx.users.activate(userId, now);
    await tx.sessions.revokeAllForUser(userId, "password_reset", now);

    return true;
  });
  if (!accepted) {
    throw new InvalidCodeError();
  }
};
