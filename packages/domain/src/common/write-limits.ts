/**
 * What members create, counted per account (per client address, IPv6 per /64, where there is no
 * account) in fixed one-hour windows shared by every process (the PostgreSQL limit store). The
 * defaults are set so that a busy real member never meets them; each is configurable
 * (`RATE_LIMIT_<KIND>_PER_HOUR`, `0` = off). Each kind's default and what it counts are said here
 * once: the variables (packages/process/src/settings.ts) and docs/safety.md's table ("Write
 * limits", rendered by `pnpm --filter @agora/process settings:write`) derive from them; an
 * operation names its kind in its contract (`writeLimit`).
 */
export const writeLimits = {
  chat_messages: { perHour: 600, counts: "chat messages" },
  conversations: { perHour: 60, counts: "conversations started" },
  moments: { perHour: 30, counts: "moments" },
  comments: { perHour: 300, counts: "comments" },
  likes: { perHour: 1000, counts: "likes" },
  reports: { perHour: 60, counts: "reports" },
  /** An author's edits and deletions of their moments and comments, and likes taken back. */
  content_changes: { perHour: 300, counts: "edits, deletions and likes taken back" },
  mutes: { perHour: 100, counts: "mutes and unmutes" },
  uploads: { perHour: 120, counts: "upload tickets" },
  /** Each asks the object store about an upload; a few per ticket. */
  media_confirmations: { perHour: 600, counts: "upload confirmations" },
  devices: { perHour: 20, counts: "device registrations" },
  meetings: { perHour: 20, counts: "meetings created" },
  /** Each password change hashes (argon2); ending sessions is cheap but needs no more. */
  account_security: { perHour: 30, counts: "password changes and ended sessions" },
  /** Each mails a code, or a notice to a taken address's owner. */
  email_changes: { perHour: 10, counts: "email change requests" },
  /** A read, bounded the same way: per client address (it takes no account). */
  searches: { perHour: 3000, counts: "public listing searches, per client address" },
} as const satisfies Record<string, { perHour: number; counts: string }>;

export type WriteLimitKind = keyof typeof writeLimits;

export const writeLimitKinds = Object.keys(writeLimits) as WriteLimitKind[];

/** Each kind's default per hour. */
export const writeLimitDefaults = Object.fromEntries(
  writeLimitKinds.map((kind) => [kind, writeLimits[kind].perHour]),
) as Record<WriteLimitKind, number>;

/**
 * Limits on reads: counted in each process and added to the limit store once a second, since a
 * counter row written per request would cost a cached search page more than the page. What that
 * allows across processes: docs/safety.md ("Write limits").
 */
export const processCountedLimitKinds: ReadonlySet<WriteLimitKind> = new Set<WriteLimitKind>(["searches"]);

/** The window of every write limit. */
export const WRITE_LIMIT_WINDOW_SECONDS = 3600;

/** The limit store's key of `kind` for an account (`user:<id>`) or an address bucket (`ip:<bucket>`). */
export const writeLimitKey = (kind: WriteLimitKind, who: string): string => `write:${kind}:${who}`;
