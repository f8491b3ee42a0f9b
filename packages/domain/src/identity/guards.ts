import { RateLimitedError } from "../common/app-error";
import { addressBucket, enforceLimit } from "../common/rate-limit";
import { AUTH_IP_WINDOW_SECONDS, EMAIL_WINDOW_SECONDS, type IdentityDeps } from "./identity.deps";

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
