import { addressBucket, enforceLimit } from "../shared/rate-limit";
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
