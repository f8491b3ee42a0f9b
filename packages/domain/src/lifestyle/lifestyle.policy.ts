import type { Actor } from "../shared/actor";
import type { Meeting } from "./lifestyle.types";

/** Dating is for adults: a birth year says the member turns 18 this year at the latest. */
export const DATING_MIN_AGE = 18;

export const isAdultBirthYear = (birthYear: number, now: Date): boolean =>
  now.getUTCFullYear() - birthYear >= DATING_MIN_AGE;

/** Only its host ends a meeting (SPEC Authentication item 7). */
export const isMeetingHost = (actor: Actor, meeting: Meeting): boolean => meeting.hostId === actor.userId;
