import { RateLimitedError } from "../shared/app-error";
import { limitAuthRequestsByIp, normalizeEmail, startResendCooldown } from "./guards";
import { type IdentityDeps, identityMailDeps, LOGIN_FAILURE_LIMIT } from "./identity.deps";
import { AccountSuspendedError, EmailNotVerifiedError, InvalidCredentialsError } from "./identity.errors";
import { sendCode } from "./send-code";

/**
 * Checks email and password, then mails a sign-in code; no session is created here. An unknown
 * email and a wrong password take the same time (a dummy hash is verified) and answer the same
 * 401. Every try is counted per account before the password is checked (one atomic increment, so
 * parallel guesses cannot all slip under the limit); past the limit the account answers 429 until
 * the window ends, so guessing stops without locking the owner out for good. The right password
 * clears the count.
 */
export const startLogin = async (
  deps: IdentityDeps,
  input: { email: string; password: string; clientIp: string },
) => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const { repos, clock, passwords } = deps;
  const email = normalizeEmail(input.email);
  const failureKey = `login:failures:${email}`;
  const tries = await repos.rateLimits.hit(
    failureKey,
    LOGIN_FAILURE_LIMIT.attempts,
    LOGIN_FAILURE_LIMIT.windowSeconds,
    clock.now(),
  );
  if (!tries.allowed) {
    throw new RateLimitedError(tries.retryAfterSeconds, "Too many failed sign-ins; try again later.");
  }

  const user = await repos.users.findByEmail(email);
  const passwordMatches =
    user && user.status !== "deleted"
      ? await passwords.verify(user.passwordHash, input.password)
      : await passwords.verifyDummy(input.password);
  if (!user || !passwordMatches) {
    throw new InvalidCredentialsError();
  }
  await repos.rateLimits.reset(failureKey);
  if (user.status === "pending_verification") {
    throw new EmailNotVerifiedError();
  }
  if (user.status === "suspended") {
    throw new AccountSuspendedError();
  }
  await sendCode(identityMailDeps(deps), user, "sign_in");
  await startResendCooldown(deps, "sign_in", email);
};
