import type { Actor } from "../common/actor";
import type { InviteeCandidate, Meeting } from "./lifestyle.types";

/** Dating is for adults: a birth year says the member turns 18 this year at the latest. */
export const DATING_MIN_AGE = 18;

export const isAdultBirthYear = (birthYear: number, now: Date): boolean =>
  now.getUTCFullYear() - birthYear >= DATING_MIN_AGE;

/** Only its host ends a meeting; a join of the host's gets room administration. */
export const isMeetingHost = (actor: Actor, meeting: Meeting): boolean => meeting.hostId === actor.userId;

/**
 * Who may know a meeting exists (see it listed, join it, end or leave it): anyone for an open
 * meeting; its host and invitees for a private one. Everyone else is answered 404, as if it did
 * not exist. The list applies the same rule in SQL (`meetingVisibleSql` in the meetings
 * repository); blocks are a separate rule (the list leaves the host's meetings out, a join is 403).
 */
export const canSeeMeeting = (actor: Actor, meeting: Meeting): boolean =>
  meeting.visibility === "open" || isMeetingHost(actor, meeting) || meeting.inviteeIds.includes(actor.userId);

/**
 * Whom a host may invite: an active account with no block between it and the host, either way.
 * Every other name in the list makes the creation 422, with one message for every reason, so the
 * answer does not tell a host who blocked them.
 */
export const canBeInvited = (candidate: InviteeCandidate): boolean =>
  candidate.status === "active" && !candidate.blockedEitherWay;
