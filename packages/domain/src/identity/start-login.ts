import { RateLimitedError } from "../common/app-error";
import { addressBucket } from "../common/rate-limit";
import { loginFailures } from "./events/login-failures";
import { limitAuthRequestsByIp, normalizeEmail, startResendCooldown } from "./guards";
import { type IdentityDeps, identityMailDeps, LOGIN_FAILURE_WINDOW_SECONDS } from "./identity.deps";
import { AccountSuspendedError, EmailNotVerifiedError, InvalidCredentialsError } from "./identity.errors";
import type { User, UserWithSecret } from "./identity.types";
import { sendCode } from "./send-code";

/**
 * Counts a wrong password for the address from any client: the try that reaches
 * LOGIN_FAILURE_NOTICE_PER_EMAIL in the window queues one notice to the owner. It never refuses,
 * so guessing from many clients cannot lock the owner out; the same write happens for an unknown
 * address (with no account id), so neither the answer nor its timing tells them apart.
 */
const countWrongPassword = async (deps: IdentityDeps, email: string, user: User | null): Promise<void> => {
  const { repos, clock, settings } = deps;
  if (settings.loginFailureNoticePerEmail <= 0) {
    return;
  }
  const now = clock.now();
  const wrong = await repos.rateLimits.hit(
    `login:wrong:${email}`,
    settings.loginFailureNoticePerEmail,
    LOGIN_FAILURE_WINDOW_SECONDS,
    now,
  );
  if (wrong.hits === settings.loginFailureNoticePerEmail) {
    const userId = user && user.status !== "deleted" ? user.id : null;
    await repos.outbox.append(
      loginFailures.event(userId ?? "none", { user_id: userId, failures: wrong.hits }),
      now,
    );
  }
};

/**
 * The password check of sign-in and of whatever else asks for the password (an email change),
 * under sign-in's guessing limits: the try is counted for (email, client) before the check (429
 * rate_limited past LOGIN_FAILURES_PER_CLIENT), a wrong password counts towards the owner's
 * notice and is 401 invalid_credentials, the right one clears that client's count. `findUser`
 * reads the account of `email` after the try is counted (none: a dummy hash is verified, so the
 * time is the same); the account is returned when the password is right.
 */
export const checkPasswordGuarded = async (
  deps: IdentityDeps,
  input: {
    email: string;
    password: string;
    clientIp: string;
    findUser: () => Promise<UserWithSecret | null>;
  },
): Promise<UserWithSecret> => {
  const { repos, clock, passwords, settings } = deps;
  const { email } = input;
  const clientKey = `login:failures:${email}:${addressBucket(input.clientIp)}`;
  const tries = await repos.rateLimits.hit(
    clientKey,
    settings.loginFailuresPerClient,
    LOGIN_FAILURE_WINDOW_SECONDS,
    clock.now(),
  );
  if (!tries.allowed) {
    throw new RateLimitedError(tries.retryAfterSeconds, "Too many failed sign-ins; try again later.");
  }
  const user = await input.findUser();
  const passwordMatches =
    user && user.status !== "deleted"
      ? await passwords.verify(user.passwordHash, input.password)
      : await passwords.verifyDummy(input.password);
  if (!user || !passwordMatches) {
    await countWrongPassword(deps, email, user);
    throw new InvalidCredentialsError();
  }
  await repos.rateLimits.reset(clientKey);

  return user;
};

/**
 * Checks email and password, then mails a sign-in code; no session is created here. An unknown
 * email and a wrong password take the same time (a dummy hash is verified) and answer the same
 * 401.
 *
 * Guessing is refused per (address, client): every try is counted per email and client address
 * (IPv6 per /64) before the password is checked (one atomic increment, so parallel guesses cannot
 * all slip under the limit); past LOGIN_FAILURES_PER_CLIENT that client answers 429 for the email
 * until the window ends, and the right password clears its count. Per address alone nothing is
 * refused, so the owner's right password from a client that has not been guessing always passes
 * (it still needs the mailed code); many wrong passwords from anywhere mail the owner a notice.
 */
export const startLogin = async (
  deps: IdentityDeps,
  input: { email: string; password: string; clientIp: string },
) => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const email = normalizeEmail(input.email);
  const user = await checkPasswordGuarded(deps, {
    email,
    password: input.password,
    clientIp: input.clientIp,
    findUser: () => deps.repos.users.findByEmail(email),
  });
  if (user.status === "pending_verification") {
    throw new EmailNotVerifiedError();
  }
  if (user.status === "suspended") {
    throw new AccountSuspendedError();
  }
  await sendCode(identityMailDeps(deps), user, "sign_in");
  await startResendCooldown(deps, "sign_in", email);
};
