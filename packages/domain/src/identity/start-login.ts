import { RateLimitedError } from "../shared/app-error";
import { limitAuthRequestsByIp, normalizeEmail } from "./guards";
import { type IdentityDeps, LOGIN_FAILURE_LIMIT } from "./identity.deps";
import { AccountSuspendedError, EmailNotVerifiedError, InvalidCredentialsError } from "./identity.errors";
import { sendCode } from "./send-code";

/**
 * Checks email and password, then mails a sign-in code; no session is created here. An unknown
 * email and a wrong password take the same time (a dummy hash is verified) and answer the same
 * 401. Wrong passwords are counted per account: past the limit the account answers 429 until the
 * window ends, so guessing stops without locking the owner out for good.
 */
export const startLogin = async (
  deps: IdentityDeps,
  input: { email: string; password: string; clientIp: string },
) => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const { repos, clock, passwords } = deps;
  const email = normalizeEmail(input.email);
  const failureKey = `login:failures:${email}`;
  const now = clock.now();
  const failures = await repos.rateLimits.peek(failureKey, LOGIN_FAILURE_LIMIT.windowSeconds, now);
  if (failures.hits >= LOGIN_FAILURE_LIMIT.attempts) {
    throw new RateLimitedError(failures.retryAfterSeconds, "Too many failed sign-ins; try again later.");
  }

  const user = await repos.users.findByEmail(email);
  const passwordMatches =
    user && user.status !== "deleted"
      ? await passwords.verify(user.passwordHash, input.password)
      : await passwords.verifyDummy(input.password);
  if (!user || !passwordMatches) {
    await repos.rateLimits.hit(
      failureKey,
      LOGIN_FAILURE_LIMIT.attempts,
      LOGIN_FAILURE_LIMIT.windowSeconds,
      now,
    );
    throw new InvalidCredentialsError();
  }
  if (user.status === "pending_verification") {
    throw new EmailNotVerifiedError();
  }
  if (user.status === "suspended") {
    throw new AccountSuspendedError();
  }
  await sendCode(deps, user, "sign_in");
  if (failures.hits > 0) {
    await repos.rateLimits.reset(failureKey);
  }
};
