import { RateLimitedError } from "../shared/app-error";
import { AUTH_IP_WINDOW_SECONDS, type IdentityDeps } from "./identity.deps";

/** RATE_LIMIT_AUTH_PER_IP: register, login, code and reset requests per client IP per 15 minutes. */
export const limitAuthRequestsByIp = async (
  { repos, clock, settings }: Pick<IdentityDeps, "repos" | "clock" | "settings">,
  clientIp: string,
): Promise<void> => {
  if (settings.authRequestsPerIp <= 0) {
    return;
  }
  const result = await repos.rateLimits.hit(
    `auth:ip:${clientIp}`,
    settings.authRequestsPerIp,
    AUTH_IP_WINDOW_SECONDS,
    clock.now(),
  );
  if (!result.allowed) {
    throw new RateLimitedError(
      result.retryAfterSeconds,
      "Too many requests from this address; try again later.",
    );
  }
};

/** Emails are compared trimmed and lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
