import type { Clock } from "../common/clock";
import type { KeyRing } from "../common/derived-keys";
import type { IdGenerator } from "../common/ids";
import type { Mailer } from "../common/mail";
import type { RateLimiter } from "../common/rate-limit";
import type { UnitOfWork } from "../common/unit-of-work";
import type { ObjectStore } from "../media/media.ports";
import type { ContentScreen } from "../moderation/content-filter-cache";
import type {
  AccessTokenIssuer,
  CodeRepository,
  IdentityRepositories,
  PasswordHasher,
  SessionActivity,
  UserRepository,
} from "./identity.ports";
import type { IdentityTransaction } from "./identity.transaction";

export type IdentitySettings = {
  /** Keys of the HMAC that stores emailed codes (KEY_PURPOSES.codes): issued under the current one. */
  codeKey: KeyRing;
  /** The key email-change undo tokens are derived under (KEY_PURPOSES.emailUndo). */
  emailUndoKey: Buffer;
  /**
   * Keys of the HMAC that derives a rotated refresh token's successor (secrets.ts: successorOf;
   * KEY_PURPOSES.refreshSuccessors): rotations use the current one.
   */
  refreshKey: KeyRing;
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
  /**
   * RESEND_COOLDOWN_SECONDS: a second resend of one purpose for one address (as given, whether or
   * not it has an account) within this answers 429; a code mailed at sign-in or registration
   * starts it too.
   */
  resendCooldownSeconds: number;
  /**
   * LOGIN_FAILURES_PER_CLIENT: sign-in tries for one email from one client address (IPv6 per /64)
   * per LOGIN_FAILURE_WINDOW_SECONDS; past it that client gets 429 for the email until the window
   * ends. The right password clears the count.
   */
  loginFailuresPerClient: number;
  /**
   * LOGIN_FAILURE_NOTICE_PER_EMAIL: wrong passwords for one email from any client per window that
   * mail the account's owner a notice (once per window; 0 = none). Never a refusal.
   */
  loginFailureNoticePerEmail: number;
  /** The verification mail's link (VERIFY_EMAIL_URL); `user_id` and `code` are added to it. */
  verifyEmailUrl: string;
  /** The email-change undo link (EMAIL_UNDO_URL); `token` is added to it. */
  emailUndoUrl: string;
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
  /** The object store: confirming avatar uploads, and the avatar's read URL. */
  objects: ObjectStore;
  /** When sessions were last used (the session list's `last_used_at`). */
  sessionActivity: SessionActivity;
  /** The content filter rules (docs/safety.md, "Filters"): screenText before a write. */
  filters: ContentScreen;
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
  /** The key new codes are stored under (the current key of KEY_PURPOSES.codes). */
  codeKey: Buffer;
  /** The key email-change undo tokens are derived under (KEY_PURPOSES.emailUndo). */
  emailUndoKey: Buffer;
  /** The verification mail's link (VERIFY_EMAIL_URL). */
  verifyEmailUrl: string;
  /** The email-changed mail's undo link (EMAIL_UNDO_URL). */
  emailUndoUrl: string;
};

/** The mail deps of a use case's IdentityDeps. */
export const identityMailDeps = ({ repos, mailer, clock, settings }: IdentityDeps): IdentityMailDeps => ({
  users: repos.users,
  codes: repos.codes,
  rateLimits: repos.rateLimits,
  mailer,
  clock,
  codeKey: settings.codeKey.current,
  emailUndoKey: settings.emailUndoKey,
  verifyEmailUrl: settings.verifyEmailUrl,
  emailUndoUrl: settings.emailUndoUrl,
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
  email_change: { ttlMinutes: 30 },
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

/** The window of the sign-in failure counts (per email and client, and per email alone). */
export const LOGIN_FAILURE_WINDOW_SECONDS = 15 * 60;

/** The window of RATE_LIMIT_AUTH_PER_IP. */
export const AUTH_IP_WINDOW_SECONDS = 15 * 60;

/** The window of the per-email registration and reset limits. */
export const EMAIL_WINDOW_SECONDS = 3600;
