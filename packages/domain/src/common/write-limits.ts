/**
 * What members create, counted per account (per client address, IPv6 per /64, where there is no
 * account) in fixed one-hour windows shared by every process (the PostgreSQL limit store). The
 * defaults are set so that a busy real member never meets them; each is configurable
 * (`RATE_LIMIT_<KIND>_PER_HOUR`, `0` = off). docs/safety.md, "Write limits", has the table.
 */
export const writeLimitDefaults = {
  chat_messages: 600,
  conversations: 60,
  moments: 30,
  comments: 300,
  likes: 1000,
  reports: 60,
  uploads: 120,
  /** `POST /media/{id}/confirm`: each asks the object store about an upload; a few per ticket. */
  media_confirmations: 600,
  devices: 20,
  meetings: 20,
  /** Public listing search, per client address (it takes no account): a read, bounded the same way. */
  searches: 3000,
} as const;

export type WriteLimitKind = keyof typeof writeLimitDefaults;

/**
 * Limits on reads: counted in each process and added to the limit store once a second, since a
 * counter row written per request would cost a cached search page more than the page. What that
 * allows across processes: docs/safety.md ("Write limits").
 */
export const processCountedLimitKinds: ReadonlySet<WriteLimitKind> = new Set<WriteLimitKind>(["searches"]);

export const writeLimitKinds = Object.keys(writeLimitDefaults) as WriteLimitKind[];

/** The window of every write limit. */
export const WRITE_LIMIT_WINDOW_SECONDS = 3600;

/** The limit store's key of `kind` for an account (`user:<id>`) or an address bucket (`ip:<bucket>`). */
export const writeLimitKey = (kind: WriteLimitKind, who: string): string => `write:${kind}:${who}`;
