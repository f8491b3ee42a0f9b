import type { Clock } from "../common/clock";
import type { KeyRing } from "../common/derived-keys";
import type { IdGenerator } from "../common/ids";
import type { SecretBox } from "../common/secret-box";
import type { UnitOfWork } from "../common/unit-of-work";
import type { OrderRepositories } from "./orders.transaction";
import type { RecentItems } from "./recent-items";

export type OrdersDeps = {
  uow: UnitOfWork<OrderRepositories>;
  repos: OrderRepositories;
  clock: Clock;
  ids: IdGenerator;
  /** Encrypts guest capabilities kept for idempotent replays. */
  secrets: SecretBox;
  /** Items recently ordered, checked again by each order's write (see RecentItems). */
  recentItems: RecentItems;
  settings: {
    /** Guest order requests per client address (IPv6 per /64) per hour (0 = no limit). */
    guestOrdersPerIp: number;
    /** Guest order requests per guest email per hour (0 = no limit). */
    guestOrdersPerEmail: number;
    /** The keys of guest receipts' unsubscribe tokens (see guest-receipts.ts: stopGuestMail). */
    guestMailStopKey: KeyRing;
    /** SESSION_MAX_AGE_SECONDS: a member's session is live this long from sign-in (sessionLive). */
    sessionMaxAgeSeconds: number;
  };
};

/** The window of the guest order limits. */
export const GUEST_ORDER_WINDOW_SECONDS = 3600;

/** The guest capability is valid 90 days. */
export const GUEST_ACCESS_TTL_MS = 90 * 24 * 3600_000;
