import type { MeetingStatus } from "./lifestyle.types";

/** Where a move takes a meeting, or why it is refused. */
export type MeetingMove = { to: MeetingStatus } | { refused: "meeting_ended" | "not_host" };

/**
 * A meeting's states: `scheduled` when created, `active` once its host joins, `ended` when its
 * host ends it.
 *
 * | from                 | move                 | to                                         |
 * | -------------------- | -------------------- | ------------------------------------------ |
 * | `scheduled`          | the host joins       | `active`                                   |
 * | `scheduled`          | anyone else joins    | `scheduled`                                |
 * | `active`             | anyone joins         | `active`                                   |
 * | `ended`              | anyone joins         | refused: 422 `meeting_ended`               |
 * | `scheduled`,`active` | the host ends        | `ended`                                    |
 * | `ended`              | the host ends        | `ended` (nothing changes; answered as is)  |
 * | any                  | anyone else ends     | refused: 403                               |
 *
 * The meetings repository's `activate` (only from `scheduled`) and `end` (only when not ended)
 * are the compare-and-set of these moves, and a join holds the meeting against a concurrent end.
 */
export const meetingAfterJoin = (status: MeetingStatus, byHost: boolean): MeetingMove => {
  if (status === "ended") {
    return { refused: "meeting_ended" };
  }

  return { to: byHost ? "active" : status };
};

/** Ending a meeting (see meetingAfterJoin for the whole table): its host only. */
export const meetingAfterEnd = (_status: MeetingStatus, byHost: boolean): MeetingMove =>
  byHost ? { to: "ended" } : { refused: "not_host" };
