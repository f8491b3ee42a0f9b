import { limitAuthRequestsByIp, limitRequestsByEmail, normalizeEmail, startResendCooldown } from "./guards";
import { type IdentityDeps, identityMailDeps } from "./identity.deps";
import { UsernameTakenError } from "./identity.errors";
import type { NewUser } from "./identity.ports";
import { registrationAttemptMail } from "./mail-templates";
import { newUser, type UserInput } from "./new-user";
import { fileProfileReport, screenProfileNames } from "./screen-profile";
import { sendCode, sendMailNow } from "./send-code";

export type RegisterUserInput = UserInput & { clientIp: string };

/**
 * Creates an account pending verification and mails its verification code while the client
 * waits. When the mail cannot be sent the account is removed again (503 email_unavailable) and
 * the same registration can be retried.
 *
 * An address held by a registration still pending verification does not stay held: the new
 * registration replaces it (the pending account, its password and its codes are removed, in one
 * transaction with the insert of the new one, whose code is mailed; a username held by anyone, the
 * pending account included, is still 409). Whoever controls the mailbox
 * verifies the registration they made; a password set by someone else never signs in
 * (docs/accounts.md, "Pending registrations").
 *
 * A verified email answers exactly like a new one (201 with an id, after the same password hash
 * and one mail), so registration cannot tell whether an address has an account: instead of a
 * code, the address's owner gets a "someone tried to register" mail, and the returned id belongs
 * to no account (verifying it answers 422 invalid_code, like a wrong code). A taken username is 409
 * username_taken, decided on the username alone. The per-email limit counts every path alike.
 */
export const registerUser = async (
  deps: IdentityDeps,
  input: RegisterUserInput,
): Promise<{ userId: string }> => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  // Limits first: a refused request costs no password hash.
  await limitRequestsByEmail(
    deps,
    "register",
    normalizeEmail(input.email),
    deps.settings.registrationsPerEmail,
  );
  const screening = await screenProfileNames(deps, input);
  const user = await newUser(deps, input, { role: "member", status: "pending_verification" });
  const { repos } = deps;
  // The old address of an email change stays reserved while its undo is live: the registration
  // answers as for a taken address (no account, a decoy id), and nobody is mailed.
  if (await repos.emailChanges.reservedBy(user.email, deps.clock.now())) {
    await startResendCooldown(deps, "verification", user.email);

    return { userId: user.id };
  }
  let created = await repos.users.create(user);
  if (created === "email_taken") {
    created = await replacePending(deps, user);
  }
  if (created === "username_taken") {
    throw new UsernameTakenError();
  }
  if (created === "email_taken") {
    // The username decides a 409 whatever the email, or 409-vs-201 would tell the email apart.
    if (await repos.users.isUsernameTaken(user.username)) {
      throw new UsernameTakenError();
    }
    const owner = await repos.users.findByEmail(user.email);
    if (owner) {
      await sendMailNow(
        deps,
        registrationAttemptMail({ to: owner.email, name: owner.displayName || owner.username }),
      );
    }
    await startResendCooldown(deps, "verification", user.email);

    return { userId: user.id };
  }
  await fileProfileReport(deps, screening, user);
  try {
    await sendCode(identityMailDeps(deps), user, "verification");
  } catch (error) {
    await deps.uow.run((tx) => tx.users.deletePending(user.id));
    throw error;
  }
  // Both 201 paths start the address's resend cooldown alike.
  await startResendCooldown(deps, "verification", user.email);

  return { userId: user.id };
};

/**
 * When the address is held by an account still pending verification, removes it and inserts
 * `user` in its place, in one transaction ("created"); a username held by anyone else rolls the
 * removal back ("username_taken"). "email_taken" when the holder is not pending (or a parallel
 * registration took the address first).
 */
const replacePending = async (
  { repos, uow }: Pick<IdentityDeps, "repos" | "uow">,
  user: NewUser,
): Promise<"created" | "email_taken" | "username_taken"> => {
  const holder = await repos.users.findByEmail(user.email);
  if (holder?.status !== "pending_verification") {
    return "email_taken";
  }
  // Decided on the username alone, the pending holder's own included: 201-vs-409 must not tell
  // which username a pending registration of this email chose.
  if (await repos.users.isUsernameTaken(user.username)) {
    return "username_taken";
  }
  try {
    return await uow.run(async (tx) => {
      if (!(await tx.users.deletePending(holder.id))) {
        return "email_taken";
      }
      const created = await tx.users.create(user);
      if (created !== "created") {
        throw new ReplacementRefused(created);
      }

      return created;
    });
  } catch (error) {
    if (error instanceof ReplacementRefused) {
      return error.outcome;
    }
    throw error;
  }
};

/** Rolls the replacement's transaction back, carrying why. */
class ReplacementRefused extends Error {
  constructor(readonly outcome: "email_taken" | "username_taken") {
    super(outcome);
  }
}
