import { createLiveKitRooms } from "@agora/adapters/video/livekit-rooms";
import { onPostgres } from "@agora/db/test/databases";
import { OUTBOX_BACKOFF } from "@agora/domain/outbox/backoff";
import { DEFAULT_TIMEOUTS } from "@agora/process/config";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import { startVideoRoomService, type VideoRoomService } from "../../../test/video-room-service";

// End and leave reach the video service through the outbox: the row changes in the request, the
// worker makes the RoomService call. These tests drive the outbox one batch at a time with the
// harness's manual clock, against a local stand-in of LiveKit's RoomService that checks each call's
// token and grant (test/video-room-service.ts).

type Envelope<T> = { data: T; error: { code: string; details?: { path: string }[] } | null };
type Meeting = { id: string; status: string };
type EventRow = {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  processed_at: Date | null;
  dead_at: Date | null;
  last_error: string | null;
};

const events = async (h: Harness, meetingId: string) =>
  (
    await h.db.sql.query<EventRow>(
      `SELECT id, kind, payload, attempts, processed_at, dead_at, last_error
         FROM outbox_events WHERE aggregate_type = 'meeting' AND aggregate_id = $1 ORDER BY id`,
      [meetingId],
    )
  ).rows;

const helpers = (h: Harness) => ({
  schedule: async (s: SignedIn, body: Record<string, unknown> = {}) => {
    const res = await h.post<Envelope<Meeting>>(
      "/api/v1/meetings",
      { title: "Standup", starts_at: new Date(h.clock.now().getTime() + 60_000).toISOString(), ...body },
      { token: s.accessToken },
    );
    expect(res.status).toBe(201);

    return res.body.data;
  },
  act: (s: SignedIn, id: string, action: "join" | "leave" | "end") =>
    h.post<Envelope<unknown>>(`/api/v1/meetings/${id}/${action}`, undefined, { token: s.accessToken }),
});

describe("meetings and the video service's rooms", () => {
  let h: Harness;
  let video: VideoRoomService;
  let t: ReturnType<typeof helpers>;
  let host: SignedIn;
  let guest: SignedIn;

  beforeAll(async () => {
    video = await startVideoRoomService();
    h = await createHarness({ seed: false, config: { video: video.config } });
    t = helpers(h);
  });
  afterAll(async () => {
    await h?.close();
    await video?.close();
  });
  beforeEach(async () => {
    // Each test starts with nothing due and an empty record.
    await h.runOutboxOnce();
    video.calls.length = 0;
    video.missed.length = 0;
    video.failNext(0);
    // Fresh sessions: tests move the clock past access tokens' lifetime.
    host = await h.signIn();
    guest = await h.signIn();
  });

  it("end writes one meeting.ended event in its transaction, and the worker deletes that room exactly once", async () => {
    const meeting = await t.schedule(host);
    for (const member of [host, guest]) {
      expect((await t.act(member, meeting.id, "join")).status).toBe(200);
      video.connect(meeting.id, member.user.id);
    }
    const ended = await t.act(host, meeting.id, "end");
    expect(ended.status).toBe(200);
    // The row changed at once; the room is the worker's.
    expect((ended.body.data as Meeting).status).toBe("ended");
    expect(video.calls).toEqual([]);
    // Ending it again answers it unchanged and writes nothing more.
    expect((await t.act(host, meeting.id, "end")).status).toBe(200);
    const [event, ...more] = await events(h, meeting.id);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      kind: "meeting.ended",
      payload: { meeting_id: meeting.id },
      processed_at: null,
    });

    expect(await h.runOutboxOnce()).toMatchObject({ claimed: 1, processed: 1 });
    expect(video.calls).toEqual([{ method: "DeleteRoom", room: meeting.id }]);
    expect(video.isConnected(meeting.id, guest.user.id)).toBe(false);
    expect(video.refused).toEqual([]);
    expect((await events(h, meeting.id))[0]?.processed_at).not.toBeNull();
    // Nothing is delivered twice.
    h.clock.advance(OUTBOX_BACKOFF.capMs);
    expect((await h.runOutboxOnce()).claimed).toBe(0);
    expect(video.calls).toHaveLength(1);

    const late = await t.act(guest, meeting.id, "join");
    expect(late.status).toBe(422);
    expect(late.body.error?.code).toBe("meeting_ended");
  });

  it("leave writes one meeting.participant_left event, and the worker removes that identity from that room once", async () => {
    const meeting = await t.schedule(host);
    for (const member of [host, guest]) {
      await t.act(member, meeting.id, "join");
      video.connect(meeting.id, member.user.id);
    }
    expect((await t.act(guest, meeting.id, "leave")).status).toBe(200);
    // A second leave is 404 and writes nothing.
    expect((await t.act(guest, meeting.id, "leave")).status).toBe(404);
    const written = await events(h, meeting.id);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      kind: "meeting.participant_left",
      payload: { meeting_id: meeting.id, user_id: guest.user.id },
    });

    expect(await h.runOutboxOnce()).toMatchObject({ claimed: 1, processed: 1 });
    expect(video.calls).toEqual([{ method: "RemoveParticipant", room: meeting.id, identity: guest.user.id }]);
    expect(video.isConnected(meeting.id, guest.user.id)).toBe(false);
    expect(video.isConnected(meeting.id, host.user.id)).toBe(true);
    expect(video.refused).toEqual([]);
  });

  it("retries a room call the service fails twice, with the outbox's backoff, and makes it once when it answers", async () => {
    const meeting = await t.schedule(host);
    await t.act(host, meeting.id, "join");
    video.connect(meeting.id, host.user.id);
    await t.act(host, meeting.id, "end");
    video.failNext(2);

    expect(await h.runOutboxOnce()).toMatchObject({ claimed: 1, retried: 1 });
    const [first] = await events(h, meeting.id);
    expect(first).toMatchObject({ attempts: 1, processed_at: null, dead_at: null });
    expect(first?.last_error).toBe(
      "VideoServiceError: DeleteRoom failed: HTTP 503: the video service is restarting",
    );
    // Not due before its backoff has passed.
    expect((await h.runOutboxOnce()).claimed).toBe(0);
    h.clock.advance(OUTBOX_BACKOFF.capMs);
    expect(await h.runOutboxOnce()).toMatchObject({ claimed: 1, retried: 1 });
    h.clock.advance(OUTBOX_BACKOFF.capMs);
    expect(await h.runOutboxOnce()).toMatchObject({ claimed: 1, processed: 1 });

    expect(video.failed).toBe(2);
    expect(video.calls).toEqual([{ method: "DeleteRoom", room: meeting.id }]);
    expect((await events(h, meeting.id))[0]).toMatchObject({ attempts: 2, dead_at: null });
    expect((await events(h, meeting.id))[0]?.processed_at).not.toBeNull();
  });

  it("dead-letters a room call after ten failures, like any event", async () => {
    const meeting = await t.schedule(host);
    await t.act(guest, meeting.id, "join");
    await t.act(guest, meeting.id, "leave");
    video.failNext(10);
    for (let failure = 1; failure <= 9; failure += 1) {
      expect(await h.runOutboxOnce()).toMatchObject({ claimed: 1, retried: 1 });
      h.clock.advance(OUTBOX_BACKOFF.capMs);
    }
    expect(await h.runOutboxOnce()).toMatchObject({ claimed: 1, dead: 1 });
    expect((await events(h, meeting.id))[0]).toMatchObject({ attempts: 10, processed_at: null });
    expect((await events(h, meeting.id))[0]?.dead_at).not.toBeNull();
    expect(video.calls).toEqual([]);
  });

  it("counts a room no one opened, or a participant no longer in it, as done (LiveKit's not_found)", async () => {
    const meeting = await t.schedule(host);
    await t.act(guest, meeting.id, "join");
    await t.act(guest, meeting.id, "leave");
    await t.act(host, meeting.id, "end");
    expect(await h.runOutboxOnce()).toMatchObject({ claimed: 2, processed: 2 });
    // Delivered side by side (one batch): in either order.
    expect(video.missed).toHaveLength(2);
    expect(video.missed).toEqual(
      expect.arrayContaining([
        { method: "RemoveParticipant", room: meeting.id, identity: guest.user.id },
        { method: "DeleteRoom", room: meeting.id },
      ]),
    );
    expect(video.calls).toEqual([]);
  });

  it("does not remove a member who joined again before the leave was delivered", async () => {
    const meeting = await t.schedule(host);
    await t.act(guest, meeting.id, "join");
    video.connect(meeting.id, guest.user.id);
    await t.act(guest, meeting.id, "leave");
    expect((await t.act(guest, meeting.id, "join")).status).toBe(200);

    expect(await h.runOutboxOnce()).toMatchObject({ claimed: 1, processed: 1 });
    expect(video.calls).toEqual([]);
    expect(video.missed).toEqual([]);
    expect(video.isConnected(meeting.id, guest.user.id)).toBe(true);
  });

  it("is checked by the stand-in as LiveKit checks it: a call signed with another secret is refused and fails", async () => {
    const wrong = createLiveKitRooms(
      { ...video.config, apiSecret: "another-secret-0123456789-0123456789" },
      {
        timeoutMs: 2_000,
      },
    );
    video.connect("room-1", "someone");
    await expect(wrong.deleteRoom("room-1")).rejects.toThrow(/^DeleteRoom failed: HTTP 401/);
    expect(video.refused).toEqual([expect.objectContaining({ method: "DeleteRoom" })]);
    expect(video.isConnected("room-1", "someone")).toBe(true);
    video.refused.length = 0;
  });

  it.skipIf(!onPostgres)(
    "writes one meeting.ended event when the host ends a meeting from several requests at once (PostgreSQL only: parallel connections)",
    async () => {
      for (let round = 0; round < 3; round += 1) {
        const meeting = await t.schedule(host);
        const statuses = (
          await Promise.all(Array.from({ length: 6 }, () => t.act(host, meeting.id, "end")))
        ).map((res) => res.status);
        expect(statuses).toEqual(Array.from({ length: 6 }, () => 200));
        expect((await events(h, meeting.id)).map((event) => event.kind)).toEqual(["meeting.ended"]);
      }
    },
  );
});

describe("a video service that does not answer", () => {
  let h: Harness;
  let video: VideoRoomService;

  beforeAll(async () => {
    video = await startVideoRoomService();
    h = await createHarness({
      seed: false,
      config: { video: video.config, timeouts: { ...DEFAULT_TIMEOUTS, videoMs: 300 } },
    });
  });
  afterAll(async () => {
    await h?.close();
    await video?.close();
  });

  it("gives a room call up after VIDEO_TIMEOUT_MS and retries it later", async () => {
    const t = helpers(h);
    const host = await h.signIn();
    const meeting = await t.schedule(host);
    await t.act(host, meeting.id, "end");
    video.hang();
    const started = Date.now();
    expect(await h.runOutboxOnce()).toMatchObject({ claimed: 1, retried: 1 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect((await events(h, meeting.id))[0]?.last_error).toBe(
      "VideoServiceError: DeleteRoom: no answer within 300 ms",
    );
    video.answer();
  });
});

describe("meetings without a video service", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("changes the rows on leave and end and writes no outbox event", async () => {
    const t = helpers(h);
    const host = await h.signIn();
    const meeting = await t.schedule(host);
    // No join is possible (503), so the participation is written as a join would.
    await h.db.sql.query(
      "INSERT INTO meeting_participants (id, meeting_id, user_id, joined_at) VALUES ($1, $2, $3, $4)",
      [h.runtime.ids.next(), meeting.id, host.user.id, h.clock.now()],
    );
    expect((await t.act(host, meeting.id, "leave")).status).toBe(200);
    expect((await t.act(host, meeting.id, "end")).status).toBe(200);
    const { rows } = await h.db.sql.query<{ status: string; active: number }>(
      `SELECT m.status, (SELECT count(*)::int FROM meeting_participants p
                          WHERE p.meeting_id = m.id AND p.left_at IS NULL) AS active
         FROM meetings m WHERE m.id = $1`,
      [meeting.id],
    );
    expect(rows[0]).toEqual({ status: "ended", active: 0 });
    expect(await events(h, meeting.id)).toEqual([]);
  });

  it("retries, then dead-letters, a meeting event claimed by a process without a video service", async () => {
    const t = helpers(h);
    const host = await h.signIn();
    const meeting = await t.schedule(host);
    // As an API with VIDEO_* would have written it, for a worker without them to claim.
    const { meetingEndedEvent } = await import("@agora/domain/lifestyle/events/meeting-ended");
    await h.runtime.lifestyle.uow.run((tx) =>
      tx.outbox.append(meetingEndedEvent({ id: meeting.id }, h.clock.now()), h.clock.now()),
    );
    expect(await h.runOutboxOnce()).toMatchObject({ claimed: 1, retried: 1 });
    expect((await events(h, meeting.id))[0]?.last_error).toMatch(
      /^VideoRoomsUnavailableError: no video service is configured in this process/,
    );
  });
});
