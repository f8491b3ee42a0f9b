import { describe, expect, it } from "vitest";
import { type MeetingStatus, meetingStatuses } from "./lifestyle.types";
import { type MeetingMove, meetingAfterEnd, meetingAfterJoin } from "./meetings.policy";

/** The table of meetings.policy.ts, written out move by move. */
const joins: [MeetingStatus, "host" | "other", MeetingMove][] = [
  ["scheduled", "host", { to: "active" }],
  ["scheduled", "other", { to: "scheduled" }],
  ["active", "host", { to: "active" }],
  ["active", "other", { to: "active" }],
  ["ended", "host", { refused: "meeting_ended" }],
  ["ended", "other", { refused: "meeting_ended" }],
];
const ends: [MeetingStatus, "host" | "other", MeetingMove][] = [
  ["scheduled", "host", { to: "ended" }],
  ["active", "host", { to: "ended" }],
  ["ended", "host", { to: "ended" }],
  ["scheduled", "other", { refused: "not_host" }],
  ["active", "other", { refused: "not_host" }],
  ["ended", "other", { refused: "not_host" }],
];

describe("meeting moves", () => {
  it.each(joins)("a %s meeting, joined by the %s: %o", (from, who, move) => {
    expect(meetingAfterJoin(from, who === "host")).toEqual(move);
  });

  it.each(ends)("a %s meeting, ended by the %s: %o", (from, who, move) => {
    expect(meetingAfterEnd(from, who === "host")).toEqual(move);
  });

  it("covers every status for host and others, and goes scheduled → active → ended only", () => {
    for (const table of [joins, ends]) {
      expect(table.map(([from, who]) => `${from}/${who}`).sort()).toEqual(
        meetingStatuses.flatMap((status) => [`${status}/host`, `${status}/other`]).sort(),
      );
    }
    // No move leads back: nothing returns to scheduled from active, nor leaves ended.
    for (const byHost of [true, false]) {
      expect(meetingAfterJoin("active", byHost)).not.toEqual({ to: "scheduled" });
      expect(meetingAfterJoin("ended", byHost)).toEqual({ refused: "meeting_ended" });
      const end = meetingAfterEnd("ended", byHost);
      expect("to" in end ? end.to : "ended").toBe("ended");
    }
  });
});
