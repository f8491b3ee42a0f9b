import { jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

// Private meetings (an invitee list at creation) and blocks: who sees a meeting listed, who may
// join it, and what everyone else is answered.

type Envelope<T> = {
  data: T;
  error: { code: string; details?: { path: string; message: string }[] } | null;
};
type Meeting = {
  id: string;
  host_id: string;
  status: string;
  visibility: "open" | "private";
  invitee_ids: string[];
  starts_at: string;
};
type Participant = { user_id: string; participant_token: string };

const video = {
  url: "wss://video.example.test",
  apiKey: "APIagora",
  apiSecret: "livekit-secret-that-is-long-enough-0123456789",
};

describe("private meetings and blocks", () => {
  let h: Harness;
  let host: SignedIn;
  let invitee: SignedIn;
  let stranger: SignedIn;

  beforeAll(async () => {
    h = await createHarness({ seed: false, config: { video } });
    host = await h.signIn();
    invitee = await h.signIn();
    stranger = await h.signIn();
  });
  afterAll(async () => {
    await h?.close();
  });

  const create = (s: SignedIn, body: Record<string, unknown> = {}, startsInMs = 3_600_000) =>
    h.post<Envelope<Meeting>>(
      "/api/v1/meetings",
      { title: "Planning", starts_at: new Date(h.clock.now().getTime() + startsInMs).toISOString(), ...body },
      { token: s.accessToken },
    );
  const schedule = async (s: SignedIn, body: Record<string, unknown> = {}, startsInMs?: number) => {
    const res = await create(s, body, startsInMs);
    expect(res.status, JSON.stringify(res.body.error)).toBe(201);

    return res.body.data;
  };
  const act = <T>(s: SignedIn, id: string, action: "join" | "leave" | "end") =>
    h.post<Envelope<T>>(`/api/v1/meetings/${id}/${action}`, undefined, { token: s.accessToken });
  const listed = async (s: SignedIn) =>
    (await h.get<Envelope<Meeting[]>>("/api/v1/meetings", { token: s.accessToken })).body.data.map(
      (m) => m.id,
    );
  const block = (blocker: SignedIn, blocked: SignedIn) =>
    h.post(`/api/v1/community/users/${blocked.user.id}/block`, undefined, { token: blocker.accessToken });
  const claims = async (token: string) =>
    (await jwtVerify(token, new TextEncoder().encode(video.apiSecret), { issuer: video.apiKey })).payload;
  const meetingCount = async () =>
    (await h.db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM meetings")).rows[0]?.n;

  it("creates a private meeting with its invitees; an open one has none", async () => {
    const other = await h.signIn();
    const ids = [other.user.id, invitee.user.id];
    const meeting = await schedule(host, { invitee_ids: ids });
    expect(meeting).toMatchObject({ host_id: host.user.id, visibility: "private", status: "scheduled" });
    expect(meeting.invitee_ids).toEqual([...ids].sort());
    const open = await schedule(host);
    expect(open).toMatchObject({ visibility: "open", invitee_ids: [] });
    const { rows } = await h.db.sql.query<{ user_id: string }>(
      "SELECT user_id FROM meeting_invitees WHERE meeting_id = $1 ORDER BY user_id",
      [meeting.id],
    );
    expect(rows.map((row) => row.user_id)).toEqual([...ids].sort());
  });

  it("answers 404 to a stranger's list, join, leave and end of a private meeting, and lets the host and invitees in", async () => {
    const meeting = await schedule(host, { invitee_ids: [invitee.user.id] });

    expect(await listed(stranger)).not.toContain(meeting.id);
    for (const action of ["join", "leave", "end"] as const) {
      const res = await act(stranger, meeting.id, action);
      expect(res.status, action).toBe(404);
      expect(res.body.error?.code).toBe("not_found");
    }
    const { rows } = await h.db.sql.query("SELECT 1 FROM meeting_participants WHERE meeting_id = $1", [
      meeting.id,
    ]);
    expect(rows).toHaveLength(0);

    expect(await listed(host)).toContain(meeting.id);
    expect(await listed(invitee)).toContain(meeting.id);
    const joined = await act<Participant>(invitee, meeting.id, "join");
    expect(joined.status).toBe(200);
    // The invitee's token names the invitee only and does not administer the room.
    const inviteeClaims = await claims(joined.body.data.participant_token);
    expect(inviteeClaims.sub).toBe(invitee.user.id);
    expect(inviteeClaims.video).toMatchObject({ room: meeting.id, roomJoin: true });
    expect((inviteeClaims.video as { roomAdmin?: boolean }).roomAdmin ?? false).toBe(false);
    const hostClaims = await claims(
      (await act<Participant>(host, meeting.id, "join")).body.data.participant_token,
    );
    expect(hostClaims.sub).toBe(host.user.id);
    expect(hostClaims.video).toMatchObject({ room: meeting.id, roomAdmin: true });

    // An invitee may see it but not end it.
    const notHost = await act(invitee, meeting.id, "end");
    expect(notHost.status).toBe(403);
    expect((await act(invitee, meeting.id, "leave")).status).toBe(200);
  });

  it("refuses an invitee list it cannot take with 422 validation_failed, each entry named, and creates nothing", async () => {
    const suspended = await h.signIn();
    await h.db.sql.query("UPDATE users SET status = 'suspended' WHERE id = $1", [suspended.user.id]);
    const blockedByHost = await h.signIn();
    await block(host, blockedByHost);
    const blocksHost = await h.signIn();
    await block(blocksHost, host);
    const before = await meetingCount();

    const refused = await create(host, {
      invitee_ids: [
        invitee.user.id,
        host.user.id,
        h.runtime.ids.next(),
        "not-a-user",
        suspended.user.id,
        blockedByHost.user.id,
        blocksHost.user.id,
      ],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error?.code).toBe("validation_failed");
    expect(refused.body.error?.details).toEqual([
      { path: "invitee_ids.1", message: "is the host (the host is always in the meeting)" },
      { path: "invitee_ids.2", message: "cannot be invited" },
      { path: "invitee_ids.3", message: "cannot be invited" },
      { path: "invitee_ids.4", message: "cannot be invited" },
      { path: "invitee_ids.5", message: "cannot be invited" },
      { path: "invitee_ids.6", message: "cannot be invited" },
    ]);

    const twice = await create(host, { invitee_ids: [invitee.user.id, stranger.user.id, invitee.user.id] });
    expect(twice.status).toBe(422);
    expect(twice.body.error?.details).toEqual([expect.objectContaining({ path: "invitee_ids.2" })]);
    for (const invitees of [[], Array.from({ length: 101 }, () => h.runtime.ids.next()), "everyone", [42]]) {
      const res = await create(host, { invitee_ids: invitees });
      expect(res.status, JSON.stringify(invitees).slice(0, 40)).toBe(422);
      expect(res.body.error?.details?.[0]?.path).toMatch(/^invitee_ids/);
    }
    expect(await meetingCount()).toBe(before);
    // A hundred is the bound, not past it.
    const hundred = await Promise.all(Array.from({ length: 99 }, () => h.createUser()));
    const full = await create(host, { invitee_ids: [invitee.user.id, ...hundred.map((user) => user.id)] });
    expect(full.status).toBe(201);
    expect(full.body.data.invitee_ids).toHaveLength(100);
  });

  it("keeps a blocked member out of an open meeting of the host (either way): not listed, join 403, nothing recorded", async () => {
    const blocker = await h.signIn();
    const blockedOne = await h.signIn();
    const meeting = await schedule(blocker);
    const seenBy = await h.signIn();
    const reverse = await schedule(blockedOne);
    await block(blocker, blockedOne);

    // One block (blocker → blockedOne) hides each side's meetings from the other.
    expect(await listed(blockedOne)).not.toContain(meeting.id);
    expect(await listed(blocker)).not.toContain(reverse.id);
    expect(await listed(seenBy)).toEqual(expect.arrayContaining([meeting.id, reverse.id]));
    for (const [member, target] of [
      [blockedOne, meeting],
      [blocker, reverse],
    ] as const) {
      const res = await act(member, target.id, "join");
      expect(res.status).toBe(403);
      expect(res.body.error?.code).toBe("forbidden");
    }
    const { rows } = await h.db.sql.query(
      "SELECT 1 FROM meeting_participants WHERE meeting_id = ANY($1::uuid[])",
      [[meeting.id, reverse.id]],
    );
    expect(rows).toHaveLength(0);
    expect((await act(seenBy, meeting.id, "join")).status).toBe(200);
  });

  it("keeps an invitee out once a block is set after the invitation", async () => {
    const later = await h.signIn();
    const meeting = await schedule(host, { invitee_ids: [later.user.id] });
    expect(await listed(later)).toContain(meeting.id);
    await block(later, host);
    expect(await listed(later)).not.toContain(meeting.id);
    expect((await act(later, meeting.id, "join")).status).toBe(403);
  });

  it("lists at most 50, soonest first, and a stranger's page holds no private meeting of anyone", async () => {
    const busyHost = await h.signIn();
    const guest = await h.signIn();
    const outsider = await h.signIn();
    // The private meetings are the soonest: they would fill a stranger's page if they leaked.
    const privateIds: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      privateIds.push((await schedule(busyHost, { invitee_ids: [guest.user.id] }, 1_000 + index)).id);
    }
    for (let index = 0; index < 55; index += 1) {
      await schedule(busyHost, {}, 10_000 + index * 1_000);
    }

    const forOutsider = (
      await h.get<Envelope<Meeting[]>>("/api/v1/meetings", { token: outsider.accessToken })
    ).body.data;
    expect(forOutsider).toHaveLength(50);
    expect(forOutsider.every((m) => m.visibility === "open")).toBe(true);
    for (const id of privateIds) {
      expect(forOutsider.map((m) => m.id)).not.toContain(id);
    }
    const starts = forOutsider.map((m) => m.starts_at);
    expect(starts).toEqual([...starts].sort());

    const forGuest = await listed(guest);
    expect(forGuest).toHaveLength(50);
    expect(forGuest.slice(0, 3)).toEqual(privateIds);
  });
});
