import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import type { IdentityDeps } from "./identity.deps";
import type { SessionSummary } from "./identity.ports";

/** The most sessions the list shows (sign-ins are limited; more than this is no one's phone drawer). */
export const SESSION_LIST_LIMIT = 100;

/** A session in its owner's list: `current` marks the caller's own. */
export type ListedSession = SessionSummary & { current: boolean };

const toMinute = (at: Date): Date => new Date(Math.floor(at.getTime() / 60_000) * 60_000);

/**
 * The caller's live sessions (sessionLive's rule), most recently used first, at most
 * SESSION_LIST_LIMIT. `lastUsedAt` is kept to the minute: the stored time (written once a minute by
 * each process), or a later one this process still holds; the caller's own session is in use now.
 */
export const listSessions = async (
  {
    repos,
    clock,
    settings,
    sessionActivity,
  }: Pick<IdentityDeps, "repos" | "clock" | "settings" | "sessionActivity">,
  actor: Actor,
): Promise<ListedSession[]> => {
  const now = clock.now();
  const sessions = await repos.sessions.listLive(
    actor.userId,
    now,
    settings.sessionMaxAgeSeconds,
    SESSION_LIST_LIMIT,
  );
  const listed = sessions.map((session) => {
    const current = session.id === actor.sessionId;
    const held = current ? now : sessionActivity.heldFor(session.id);
    const lastUsedAt = toMinute(held && held > session.lastUsedAt ? held : session.lastUsedAt);

    return { ...session, lastUsedAt, current };
  });

  return listed.sort(
    (a, b) =>
      b.lastUsedAt.getTime() - a.lastUsedAt.getTime() ||
      b.createdAt.getTime() - a.createdAt.getTime() ||
      (a.id < b.id ? 1 : -1),
  );
};

/**
 * Ends one of the caller's sessions (the caller's own too: a sign-out): its access tokens fail at
 * their next request, its refresh token is dead, and its push registrations get nothing more
 * (push goes only to devices of live sessions). One that has ended already answers the same (a
 * retry is safe); another user's session, or an unknown id, is 404 and changes nothing.
 */
export const endSession = async (
  { repos, clock, settings }: Pick<IdentityDeps, "repos" | "clock" | "settings">,
  actor: Actor,
  sessionId: string,
): Promise<void> => {
  const own = await repos.sessions.endOwn(
    actor.userId,
    sessionId,
    "ended_by_owner",
    clock.now(),
    settings.sessionMaxAgeSeconds,
  );
  if (!own) {
    throw new NotFoundError("Session");
  }
};

/** Ends every session of the caller but the one making the request; resolves how many ended. */
export const endOtherSessions = async (
  { repos, clock }: Pick<IdentityDeps, "repos" | "clock">,
  actor: Actor,
): Promise<number> =>
  repos.sessions.revokeAllForUser(actor.userId, "ended_by_owner", clock.now(), actor.sessionId);
