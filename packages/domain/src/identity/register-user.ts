import { limitAuthRequestsByIp, limitRequestsByEmail, normalizeEmail, startResendCooldown } from "./guards";
import { type IdentityDeps, identityMailDeps } from "./identity.deps";
import { UsernameTakenError } from "./identity.errors";
import { registrationAttemptMail } from "./mail-templates";
import { newUser, type UserInput } from "./new-user";
import { sendCode, sendMailNow } from "./send-code";

export type RegisterUserInput = UserInput & { clientIp: string };

/**
 * Creates an account pending verification and mails its verification code while the client
 * waits. When the mail cannot be sent the account is removed again (503 email_unavailable) and
 * the same registration can be retried.
 *
 * A taken email answers exactly like a new one (201 with an id, after the same password hash and
 * one mail), so registration cannot tell whether an address has an account: instead of a code,
 * the address's owner gets a "someone tried to register" mail, and the returned id belongs to no
 * account (verifying it answers 422 invalid_code, like a wrong code). A taken username is 409
 * username_taken, decided on the username alone. The per-email limit counts both paths alike.
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
  const user = await newUser(deps, input, { role: "member", status: "pending_verification" });
  const { repos } = deps;
  const created = await repos.users.create(user);
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
  try {
    await sendCode(identityMailDeps(deps), user, "verification");
  } catch (error) {
    await repos.users.deletePending(user.id);
    throw error;
  }
  // Both 201 paths start the address's resend cooldown alike.
  await startResendCooldown(deps, "verification", user.email);

  return { userId: user.id };
};
