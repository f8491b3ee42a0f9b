import { RateLimitedError } from "../common/app-error";
import { MailDeliveryError, type OutgoingMail } from "../common/mail";
import { type CodeRefusal, issueCode, recordCodeSent } from "./code-limits";
import { CODE_POLICY, type IdentityMailDeps } from "./identity.deps";
import { EmailUnavailableError } from "./identity.errors";
import type { CodePurpose, User } from "./identity.types";
import { codeMail, verificationLink } from "./mail-templates";

type MailedUser = Pick<User, "id" | "email" | "displayName" | "username">;

/**
 * A code request that must not reach its address (an email change to a taken address): the code
 * is issued as usual, and `mail` (a notice to someone else, or none) is sent instead of it, so the
 * request's status, cooldowns and work are those of a mailed code.
 */
export type MailInstead = { mail: OutgoingMail | null };

/**
 * Issues a code of `purpose` and mails it, with no transaction open while the provider answers:
 * the code row is written first (that write is the cooldown's proof), then the mail is sent. When
 * the provider refuses, the code is taken back (so no usable code and no cooldown remain) and
 * MailDeliveryError propagates. A refusal (locked purpose, cooldown) mails nothing, and so does an
 * account removed meanwhile ("no_account": a newer registration replaced this pending one).
 */
export const mailCode = async (
  deps: Omit<IdentityMailDeps, "users">,
  user: MailedUser,
  purpose: CodePurpose,
  instead?: MailInstead,
): Promise<"sent" | "no_account" | CodeRefusal> => {
  const issued = await issueCode(deps, user.id, purpose);
  if (issued === "no_account" || "refused" in issued) {
    return issued;
  }
  try {
    // With `instead` the code is issued and stored all the same (the same work), and mailed to nobody.
    const mail = instead
      ? instead.mail
      : codeMail({
          to: user.email,
          name: user.displayName || user.username,
          purpose,
          code: issued.code,
          validMinutes: CODE_POLICY[purpose].ttlMinutes,
          verification:
            purpose === "verification"
              ? { username: user.username, link: verificationLink(deps.verifyEmailUrl, user.id, issued.code) }
              : undefined,
        });
    if (mail) {
      await deps.mailer.send(mail);
    }
  } catch (error) {
    await deps.codes.discard(user.id, purpose, issued.codeHash);
    throw error;
  }
  await recordCodeSent(deps, user.id, purpose);

  return "sent";
};

const asEmailUnavailable = (error: unknown): unknown =>
  error instanceof MailDeliveryError ? new EmailUnavailableError(error) : error;

/**
 * Mails a code while the client waits (sign-in, registration): a refusal is 429 rate_limited with
 * Retry-After, a provider failure 503 email_unavailable with nothing kept.
 */
export const sendCode = async (
  deps: Omit<IdentityMailDeps, "users">,
  user: MailedUser,
  purpose: CodePurpose,
  instead?: MailInstead,
): Promise<void> => {
  let outcome: Awaited<ReturnType<typeof mailCode>>;
  try {
    outcome = await mailCode(deps, user, purpose, instead);
  } catch (error) {
    throw asEmailUnavailable(error);
  }
  // An account removed meanwhile has nothing to mail; the answer is the same as for one mailed
  // (the registration it was: a newer one for the address replaced it and mailed its owner).
  if (outcome !== "sent" && outcome !== "no_account") {
    throw new RateLimitedError(
      outcome.retryAfterSeconds,
      outcome.refused === "locked"
        ? "Too many wrong codes were entered; no new code can be sent for a while."
        : "A code was just sent; wait before asking for another.",
    );
  }
};

/** Sends a mail while the client waits (the registration notice): provider failure is 503. */
export const sendMailNow = async ({ mailer }: Pick<IdentityMailDeps, "mailer">, mail: OutgoingMail) => {
  try {
    await mailer.send(mail);
  } catch (error) {
    throw asEmailUnavailable(error);
  }
};
