import { RateLimitedError } from "../shared/app-error";
import { MailDeliveryError } from "../shared/mail";
import { CODE_POLICY, type IdentityDeps } from "./identity.deps";
import { EmailUnavailableError } from "./identity.errors";
import type { IdentityRepositories } from "./identity.ports";
import type { CodePurpose, User } from "./identity.types";
import { codeMail } from "./mail-templates";
import { generateCode, hashCode } from "./secrets";

/**
 * Mails a fresh code of `purpose` to `user`, replacing the previous one. The code is written and
 * the mail sent inside one transaction: when the provider refuses, the transaction rolls back, so
 * no usable code and no cooldown are left behind (503 email_unavailable). Within the cooldown of
 * the last code of that purpose it answers 429 with Retry-After; the check and the write are one
 * statement, so two parallel requests cannot both send.
 *
 * Pass `tx` to send inside a transaction the caller already holds (registration).
 */
export const sendCode = async (
  { uow, clock, mailer, settings }: Pick<IdentityDeps, "uow" | "clock" | "mailer" | "settings">,
  user: Pick<User, "id" | "email" | "displayName" | "username">,
  purpose: CodePurpose,
  tx?: IdentityRepositories,
): Promise<void> => {
  const now = clock.now();
  const code = generateCode();
  const ttlMinutes = CODE_POLICY[purpose].ttlMinutes;
  const work = async (repos: IdentityRepositories) => {
    const stored = await repos.codes.putIfCooledDown(
      user.id,
      purpose,
      {
        codeHash: hashCode(settings.codeKey, user.id, purpose, code),
        sentAt: now,
        expiresAt: new Date(now.getTime() + ttlMinutes * 60_000),
      },
      new Date(now.getTime() - CODE_POLICY.cooldownSeconds * 1000),
    );
    if (!stored) {
      const previous = await repos.codes.find(user.id, purpose);
      const elapsed = previous ? (now.getTime() - previous.sentAt.getTime()) / 1000 : 0;
      throw new RateLimitedError(
        CODE_POLICY.cooldownSeconds - elapsed,
        "A code was just sent; wait before asking for another.",
      );
    }
    try {
      await mailer.send(
        codeMail({
          to: user.email,
          name: user.displayName || user.username,
          purpose,
          code,
          validMinutes: ttlMinutes,
        }),
      );
    } catch (error) {
      if (error instanceof MailDeliveryError) {
        throw new EmailUnavailableError(error);
      }
      throw error;
    }
  };

  if (tx) {
    await work(tx);

    return;
  }
  await uow.run(work);
};
