import type { Clock } from "../shared/clock";
import type { IdGenerator } from "../shared/ids";
import type { Mailer } from "../shared/mail";
import type { RateLimiter } from "../shared/rate-limit";
import type { UnitOfWork } from "../shared/unit-of-work";
import type {
  AccessTokenIssuer,
  CodeRepository,
  IdentityRepositories,
  IdentityTransaction,
  PasswordHasher,
  UserRepository,
} from "./identity.ports";

export type IdentitySettings = {
  /** Key of the HMAC that stores emailed codes. */
  codeKey: string;
  refreshTokenTtlSeconds: number;
  refreshReuseGraceSeconds: number;
  /** A session's absolute lifetime (SESSION_MAX_AGE_SECONDS): refreshing never extends it past this. */
  sessionMaxAgeSeconds: number;
  /** Auth requests per client IP per window (0 = no per-IP limit). */
  authRequestsPerIp: number;
  /** Registrations per email address per hour (0 = no limit). */
  registrationsPerEmail: number;
  /** Password reset requests per email address per hour (0 = no limit). */
  resetRequestsPerEmail: number;
};

export type IdentityDeps = {
  uow: UnitOfWork<IdentityTransaction>;
  /** Repositories outside any transaction (reads, and counters that must survive a rollback). */
  repos: IdentityRepositories;
  clock: Clock;
  ids: IdGenerator;
  mailer: Mailer;
  passwords: PasswordHasher;
  accessTokens: AccessTokenIssuer;
  settings: IdentitySettings;
};

/**
 * What mailing a code needs, at request time (sign-in, registration) and at delivery of the
 * outbox's code and notice events (resends, password reset, lock notices).
 */
export type IdentityMailDeps = {
  users: Pick<UserRepository, "findById">;
  codes: CodeRepository;
  rateLimits: RateLimiter;
  mailer: Mailer;
  clock: Clock;
  codeKey: string;
};

/** The mail deps of a use case's IdentityDeps. */
export const identityMailDeps = ({ repos, mailer, clock, settings }: IdentityDeps): IdentityMailDeps => ({
  users: repos.users,
  codes: repos.codes,
  rateLimits: repos.rateLimits,
  mailer,
  clock,
  codeKey: settings.codeKey,
});

/**
 * The abuse limits (docs/configuration.md): lifetimes and tries of emailed codes, the cooldown between
 * codes of one purpose (60 s for the first three codes of a day, then doubling up to an hour), and
 * the long-term cap on wrong codes per account and purpose, which new codes do not reset.
 */
export const CODE_POLICY = {
  verification: { ttlMinutes: 30 },
  sign_in: { ttlMinutes: 15 },
  reset: { ttlMinutes: 30 },
  maxAttempts: 5,
  cooldownSeconds: 60,
  /** Codes of a purpose sent within the window that keep the base cooldown before it doubles. */
  cooldownFlatSends: 3,
  maxCooldownSeconds: 3600,
  /** Wrong codes per account and purpose per window; reaching it locks the purpose for the window. */
  failureCap: 20,
  /** The window of both the wrong-code count and the sent-code count. */
  failureWindowSeconds: 24 * 3600,
} as const;

/** Wrong passwords per account per window before sign-in answers 429 until the window passes. */
export const LOGIN_FAILURE_LIMIT = { attempts: 10, windowSeconds: 15 * 60 } as const;

/** The window of RATE_LIMIT_AUTH_PER_IP. */
export const AUTH_IP_WINDOW_SECONDS = 15 * 60;

/** The window of the per-email registration and reset limits. */
export const EMAIL_WINDOW_SECONDS = 3600;
