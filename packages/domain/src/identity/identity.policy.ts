import type { Actor, Role } from "../common/actor";
import { ForbiddenError } from "../common/app-error";
import type { SessionLivenessFacts, UserStatus } from "./identity.types";

/** Throws 403 unless the caller holds one of `allowed`. */
export const requireRole = (actor: Actor, ...allowed: Role[]): void => {
  if (!allowed.includes(actor.role)) {
    throw new ForbiddenError(`This needs the ${allowed.join(" or ")} role.`);
  }
};

export const isAdmin = (actor: Actor): boolean => actor.role === "admin";

/**
 * Author presence: an account's records (moments, comments, dating profile, logo, avatar, and its
 * listings through their owner_active) are visible to others while the account is active; a
 * suspended or deleted author's leave every read by others and come back on reactivation
 * (docs/safety.md, "Suspension removes an author's presence"). Mirrors the SQL function
 * `author_present` (migration 20261210000000_moment_visibility_rule), which the reads call;
 * packages/db/test/moment-visibility.int.test.ts proves they agree on every status.
 */
export const authorPresent = (status: UserStatus): boolean => status === "active";

/**
 * A session is live at `at` (its access tokens are honoured, its refresh token may rotate, its
 * sockets stay open, its orders are written) when it is not revoked, it is younger than
 * `maxAgeSeconds` (SESSION_MAX_AGE_SECONDS: at exactly its end it is over, however often it was
 * refreshed) and its user's account is active. Mirrors the SQL function `session_live` (migration
 * 20261210010100_session_live_rule), which every query deciding liveness calls; a test
 * (packages/db/test/session-live.int.test.ts) proves they agree on every combination.
 */
export const sessionLive = (session: SessionLivenessFacts, maxAgeSeconds: number, at: Date): boolean =>
  session.revokedAt === null &&
  session.userStatus === "active" &&
  at.getTime() - session.createdAt.getTime() < maxAgeSeconds * 1000;
