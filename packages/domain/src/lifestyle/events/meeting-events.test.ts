import { describe, expect, it } from "vitest";
import type { VideoRooms } from "../lifestyle.ports";
import { meetingEnded, meetingEndedEvent } from "./meeting-ended";
import { participantLeft, participantLeftEvent } from "./participant-left";

const meetingId = "0193a5b2-7c1e-7d4f-8a9b-0c1d2e3f4a5b";
const userId = "0193a5b2-7c1e-7d4f-8a9b-0c1d2e3f4a5c";
const at = new Date("2026-12-05T10:00:00Z");

/** A recording fake of the port (the integration tests use the real adapter and a stand-in service). */
const recordingRooms = () => {
  const calls: string[] = [];
  const rooms: VideoRooms = {
    deleteRoom: async (room) => {
      calls.push(`DeleteRoom ${room}`);
    },
    removeParticipant: async (room, identity) => {
      calls.push(`RemoveParticipant ${room} ${identity}`);
    },
  };

  return { calls, rooms };
};

const deliverable = <P>(event: { kind: string; aggregateType: string; aggregateId: string; payload: P }) => ({
  ...event,
  id: "e",
  attempts: 0,
  createdAt: at,
});

describe("meeting.ended", () => {
  it("carries the meeting's id and deletes that room", async () => {
    const event = meetingEndedEvent({ id: meetingId }, at);
    expect(event).toEqual({
      kind: "meeting.ended",
      aggregateType: "meeting",
      aggregateId: meetingId,
      payload: { meeting_id: meetingId, ended_at: at.toISOString() },
    });
    const { calls, rooms } = recordingRooms();
    const payload = meetingEnded.payload.parse(event.payload);
    await meetingEnded.deliver({ video: rooms }, deliverable({ ...event, payload }));
    expect(calls).toEqual([`DeleteRoom ${meetingId}`]);
  });

  it("fails (to be retried) in a process without a video service", async () => {
    const event = meetingEndedEvent({ id: meetingId }, at);
    const payload = meetingEnded.payload.parse(event.payload);
    await expect(
      meetingEnded.deliver({ video: undefined }, deliverable({ ...event, payload })),
    ).rejects.toThrow("no video service is configured in this process");
  });
});

describe("meeting.participant_left", () => {
  const event = participantLeftEvent(meetingId, userId, at);
  const payload = participantLeft.payload.parse(event.payload);

  it("removes that identity from that room", async () => {
    const { calls, rooms } = recordingRooms();
    await participantLeft.deliver(
      { video: rooms, meetings: { isParticipating: async () => false } },
      deliverable({ ...event, payload }),
    );
    expect(calls).toEqual([`RemoveParticipant ${meetingId} ${userId}`]);
  });

  it("leaves a member who joined again in the call", async () => {
    const { calls, rooms } = recordingRooms();
    const asked: string[] = [];
    await participantLeft.deliver(
      {
        video: rooms,
        meetings: {
          isParticipating: async (meeting, user) => {
            asked.push(`${meeting} ${user}`);

            return true;
          },
        },
      },
      deliverable({ ...event, payload }),
    );
    expect(asked).toEqual([`${meetingId} ${userId}`]);
    expect(calls).toEqual([]);
  });
});
