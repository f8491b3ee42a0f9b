import type { Actor } from "../common/actor";
import { UnauthorizedError } from "../common/app-error";
import { passwordChanged } from "./events/account-notices";
import { checkPassword, countPasswordTry, limitAuthRequestsByIp } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { InvalidCredentialsError } from "./identity.errors";
import type { UserWithSecret } from "./identity.types";

/**
 * A signed-in caller changes their password. The current password is a password guess like a
 * sign-in's (countPasswordTry, checkPassword): counted per address and client first (429 past
 * LOGIN_FAILURES_PER_CLIENT), a wrong one is 401 invalid_credentials and counts toward the owner's
 * wrong-password notice. The right one: in one transaction the new password is stored, every
 * other session of the account ends (the caller's stays) and the owner is mailed a notice.
 * Resolves how many sessions ended. Retry-safe without a key: when the current password is wrong
 * but the new one is the account's password already (the first answer was lost), it answers as
 * done, with no session ended and no mail. (An `Idempotency-Key` would keep a fast hash of a body
 * holding both passwords for a day; docs/accounts.md, "Changing the password".)
 */
export const changePassword = async (
  deps: IdentityDeps,
  actor: Actor,
  input: { currentPassword: string; newPassword: string; clientIp: string },
): Promise<{ sessionsEnded: number }> => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const { repos, uow, clock, passwords } = deps;
  const found = await repos.users.findById(actor.userId);
  if (found?.status !== "active") {
    throw new UnauthorizedError("The session has ended; sign in again.");
  }
  const guess = await countPasswordTry(deps, found.email, input.clientIp);
  let user: UserWithSecret;
  try {
    user = await checkPassword(deps, guess, found, input.currentPassword, "The current password is wrong.");
  } catch (error) {
    // A retry of a change whose answer was lost: the new password is the password already.
    if (
      error instanceof InvalidCredentialsError &&
      (await passwords.verify(found.passwordHash, input.newPassword))
    ) {
      return { sessionsEnded: 0 };
    }
    throw error;
  }
  // Before the transaction: no connection is held while argon2 works (503 when it is busy, and
  // nothing has changed then).
  const passwordHash = await passwords.hash(input.newPassword);
  const now = clock.now();

  return uow.run(async (tx) => {
    await tx.users.setPasswordHash(user.id, passwordHash, now);
    const sessionsEnded = await tx.sessions.revokeAllForUser(
      user.id,
      "password_changed",
      now,
      actor.sessionId,
    );
    await tx.outbox.append(
      passwordChanged.event(user.id, {
        user_id: user.id,
        changed_at: now.toISOString(),
        sessions_ended: sessionsEnded,
      }),
      now,
    );

    return { sessionsEnded };
  });
};
