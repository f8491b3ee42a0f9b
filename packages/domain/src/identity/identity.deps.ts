import type { Clock } from "../shared/clock";
import type { IdGenerator } from "../shared/ids";
import type { Mailer } from "../shared/mail";
import type { UnitOfWork } from "../shared/unit-of-work";
import type { AccessTokenIssuer, IdentityRepositories, PasswordHasher } from "./identity.ports";

export type IdentitySettings = {
  /** Key of the HMAC that stores emailed codes. */
  codeKey: string;
  refreshTokenTtlSeconds: number;
  refreshReuseGraceSeconds: number;
  /** Auth requests per client IP per window (0 = no per-IP limit). */
  authRequestsPerIp: number;
};

export type IdentityDeps = {
  uow: UnitOfWork<IdentityRepositories>;
  /** Repositories outside any transaction (reads, and counters that must survive a rollback). */
  repos: IdentityRepositories;
  clock: Clock;
  ids: IdGenerator;
  mailer: Mailer;
  passwords: PasswordHasher;
  accessTokens: AccessTokenIssuer;
  settings: IdentitySettings;
};

/** CONTRACT.md §4: lifetimes, tries and cooldown of emailed codes. */
export const CODE_POLICY = {
  verification: { ttlMinutes: 30 },
  sign_in: { ttlMinutes: 15 },
  reset: { ttlMinutes: 30 },
  maxAttempts: 5,
  cooldownSeconds: 60,
} as const;

/** Wrong passwords per account per window before sign-in answers 429 until the window passes. */
export const LOGIN_FAILURE_LIMIT = { attempts: 10, windowSeconds: 15 * 60 } as const;

/** The window of RATE_LIMIT_AUTH_PER_IP. */
export const AUTH_IP_WINDOW_SECONDS = 15 * 60;
