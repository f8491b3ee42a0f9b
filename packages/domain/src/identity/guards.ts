import { RateLimitedError } from "../common/app-error";
import { addressBucket, enforceLimit } from "../common/rate-limit";
import { loginFailures } from "./events/login-failures";
import {
  AUTH_IP_WINDOW_SECONDS,
  EMAIL_WINDOW_SECONDS,
  type IdentityDeps,
  LOGIN_FAILURE_WINDOW_SECONDS,
} from "./identity.deps";
import { InvalidCredentialsError } from "./identity.errors";
import type { User, UserWithSecret } from "./identity.types";

/**
 * RATE_LIMIT_AUTH_PER_IP: register, login, code and reset requests per client address per 15
 * minutes (IPv6 counted per /64).
 */
export const limitAuthRequestsByIp = (
  { repos, clock, settings }: Pick<IdentityDeps, "repos" | "clock" | "settings">,
  clientIp: string,
): Promise<void> =>
  enforceLimit(
    repos.rateLimits,
    {
      key: `auth:ip:${addressBucket(clientIp)}`,
      max: settings.authRequestsPerIp,
      windowSeconds: AUTH_IP_WINDOW_SECONDS,
      message: "Too many requests from this address; try again later.",
    },
    clock.now(),
  );

/**
 * Per-address limits of the requests that mail somebody (registration, password reset): counted
 * on the normalised email whether or not an account holds it, so a 429 says nothing about one.
 */
export const limitRequestsByEmail = (
  { repos, clock }: Pick<IdentityDeps, "repos" | "clock">,
  request: "register" | "reset",
  email: string,
  max: number,
): Promise<void> =>
  enforceLimit(
    repos.rateLimits,
    {
      key: `${request}:email:${email}`,
      max,
      windowSeconds: EMAIL_WINDOW_SECONDS,
      message: "Too many requests for this email address; try again later.",
    },
    clock.now(),
  );

/** Emails are compared trimmed and lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** The purposes a client can ask to be mailed again. */
type ResendPurpose = "verification" | "sign_in";

const resendKey = (purpose: ResendPurpose, email: string) => `resend:${purpose}:${normalizeEmail(email)}`;

/**
 * The resend cooldown (RESEND_COOLDOWN_SECONDS), keyed on the address as given, whatever account
 * it belongs to, if any: the first resend in a window passes, a second one for the same address
 * and purpose inside it answers 429 rate_limited with Retry-After. A known and an unknown address
 * answer alike, so the 429 tells nothing about an account.
 */
export const enforceResendCooldown = async (
  { repos, clock, settings }: Pick<IdentityDeps, "repos" | "clock" | "settings">,
  purpose: ResendPurpose,
  email: string,
): Promise<void> => {
  const result = await repos.rateLimits.hit(
    resendKey(purpose, email),
    1,
    settings.resendCooldownSeconds,
    clock.now(),
  );
  if (!result.allowed) {
    throw new RateLimitedError(
      result.retryAfterSeconds,
      "A code was just requested; wait before asking for another.",
    );
  }
};

/**
 * Starts the resend cooldown of `email` without refusing anything: a code was just mailed to it by
 * a correct-password sign-in, or a registration answered (a taken address included), so a resend
 * right after answers 429 like a second resend. The window restarts now, so it ends with the
 * mailed code's own cooldown.
 */
export const startResendCooldown = async (
  { repos, clock, settings }: Pick<IdentityDeps, "repos" | "clock" | "settings">,
  purpose: ResendPurpose,
  email: string,
): Promise<void> => {
  await repos.rateLimits.reset(resendKey(purpose, email));
  await repos.rateLimits.hit(resendKey(purpose, email), 1, settings.resendCooldownSeconds, clock.now());
};

/**
 * A password guess for the account of `email`, counted per (address, client) before the password
 * is checked: sign-in, and the signed-in checks of the current password (changing it). One atomic
 * increment, so parallel guesses cannot all slip under LOGIN_FAILURES_PER_CLIENT; past it that
 * client answers 429 for the address until the window ends. Resolves the try, which checkPassword
 * judges (the right password clears the count).
 */
export const countPasswordTry = async (
  { repos, clock, settings }: Pick<IdentityDeps, "repos" | "clock" | "settings">,
  email: string,
  clientIp: string,
): Promise<PasswordTry> => {
  const clientKey = `login:failures:${email}:${addressBucket(clientIp)}`;
  const tries = await repos.rateLimits.hit(
    clientKey,
    settings.loginFailuresPerClient,
    LOGIN_FAILURE_WINDOW_SECONDS,
    clock.now(),
  );
  if (!tries.allowed) {
    throw new RateLimitedError(tries.retryAfterSeconds, "Too many failed sign-ins; try again later.");
  }

  return { email, clientKey };
};

/** A counted password guess (countPasswordTry): the address it is for, and its client's count. */
export type PasswordTry = { email: string; clientKey: string };

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
 * Checks `password` against the account (`found`, null for an unknown address) after
 * countPasswordTry: a wrong one, or no account, verifies a dummy hash (the same time), counts toward
 * the owner's notice and is 401 invalid_credentials (with `wrongMessage` when given); the right one
 * clears the client's count and resolves the account.
 */
export const checkPassword = async (
  deps: IdentityDeps,
  guess: PasswordTry,
  found: UserWithSecret | null,
  password: string,
  wrongMessage?: string,
): Promise<UserWithSecret> => {
  const user = found && found.status !== "deleted" ? found : null;
  const matches = user
    ? await deps.passwords.verify(user.passwordHash, password)
    : await deps.passwords.verifyDummy(password);
  if (!user || !matches) {
    await countWrongPassword(deps, guess.email, found);
    throw new InvalidCredentialsError(wrongMessage);
  }
  await deps.repos.rateLimits.reset(guess.clientKey);

  return user;
};
