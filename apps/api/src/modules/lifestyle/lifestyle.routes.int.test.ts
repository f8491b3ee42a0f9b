import { onPostgres } from "@agora/db/test/databases";
import { jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type Envelope<T> = {
  data: T;
  meta: { limit: number; offset: number; total: number } | null;
  error: { code: string } | null;
};
type Profile = {
  user_id: string;
  visible: boolean;
  bio: string;
  interests: string[];
  birth_year: number | null;
  created_at: string;
  updated_at: string;
};
type Browsed = { user_id: string; display_name: string; interests: string[] };
type Meeting = { id: string; host_id: string; title: string; starts_at: string; status: string };
type Participant = {
  meeting_id: string;
  user_id: string;
  joined_at: string;
  video_url: string;
  participant_token: string;
};
type Announcement = { id: string; title: string; published: boolean; published_at: string | null };

const video = {
  url: "wss://video.example.test",
  apiKey: "APIagora",
  apiSecret: "livekit-secret-that-is-long-enough-0123456789",
};

describe("dating", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  const put = (s: SignedIn, body: unknown) =>
    h.put<Envelope<Profile>>("/api/v1/dating/profile", body, { token: s.accessToken });
  const browse = (s: SignedIn, query = "") =>
    h.get<Envelope<Browsed[]>>(`/api/v1/dating/browse${query}`, { token: s.accessToken });

  it("creates and then updates the caller's profile, 200 both times, keeping created_at", async () => {
    const ada = await h.signIn();
    const first = await put(ada, {
      visible: true,
      bio: "  Hello ",
      interests: ["Chess", "chess", " Tea "],
      birth_year: 1990,
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      user_id: ada.user.id,
      visible: true,
      bio: "Hello",
      interests: ["Chess", "Tea"],
      birth_year: 1990,
    });
    h.clock.advance(1_000);
    const second = await put(ada, { visible: false });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ visible: false, bio: "", interests: [], birth_year: null });
    expect(second.body.data.created_at).toBe(first.body.data.created_at);
    expect(second.body.data.updated_at).not.toBe(first.body.data.updated_at);
  });

  it("answers 422 for out-of-bounds fields and a minor's birth year, and 401 without a token", async () => {
    const ada = await h.signIn();
    const thisYear = h.clock.now().getUTCFullYear();
    for (const body of [
      {},
      { visible: "yes" },
      { visible: true, bio: "x".repeat(1001) },
      { visible: true, interests: Array.from({ length: 21 }, (_, i) => `i${i}`) },
      { visible: true, interests: ["x".repeat(41)] },
      { visible: true, birth_year: 1899 },
      { visible: true, birth_year: thisYear - 17 },
    ]) {
      const res = await put(ada, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(res.body.error?.code).toBe("validation_failed");
    }
    expect((await put(ada, { visible: true, birth_year: thisYear - 18 })).status).toBe(200);
    expect((await h.put("/api/v1/dating/profile", { visible: true })).status).toBe(401);
  });

  it("browses other visible profiles: never the caller, blocks both ways, no suspended or deleted accounts, stable pages", async () => {
    const viewer = await h.signIn();
    const others = [];
    for (let index = 0; index < 5; index += 1) {
      const other = await h.signIn();
      h.clock.advance(1_000);
      await put(other, { visible: true, interests: [`i${index}`] });
      others.push(other);
    }
    const hidden = await h.signIn();
    await put(hidden, { visible: false });
    await put(viewer, { visible: true });
    const [a, b, c, d, e] = others as [SignedIn, SignedIn, SignedIn, SignedIn, SignedIn];
    // The viewer blocks b; d blocks the viewer; e's account is suspended.
    await h.post(`/api/v1/community/users/${b.user.id}/block`, undefined, { token: viewer.accessToken });
    await h.post(`/api/v1/community/users/${viewer.user.id}/block`, undefined, { token: d.accessToken });
    await h.db.sql.query("UPDATE users SET status = 'suspended' WHERE id = $1", [e.user.id]);

    const all = await browse(viewer, "?limit=100");
    expect(all.status).toBe(200);
    const seen = all.body.data.map((profile) => profile.user_id);
    expect(seen).toEqual(expect.arrayContaining([a.user.id, c.user.id]));
    for (const absent of [viewer, b, d, e, hidden]) {
      expect(seen).not.toContain(absent.user.id);
    }
    // Each side of a block is hidden from the other.
    expect((await browse(b, "?limit=100")).body.data.map((p) => p.user_id)).not.toContain(viewer.user.id);

    const firstPage = await browse(viewer, "?limit=1");
    const secondPage = await browse(viewer, "?limit=1&offset=1");
    expect(firstPage.body.meta).toEqual({ limit: 1, offset: 0, total: all.body.meta?.total });
    expect([...firstPage.body.data, ...secondPage.body.data].map((p) => p.user_id)).toEqual(seen.slice(0, 2));
    expect((await browse(viewer, "?limit=1")).body.data).toEqual(firstPage.body.data);
    expect((await browse(viewer, "?limit=0")).status).toBe(422);
  });
});

describe("curated content and announcements", () => {
  let h: Harness;
  let admin: SignedIn;
  let member: SignedIn;

  beforeAll(async () => {
    h = await createHarness({ seed: false });
    admin = await h.signIn({ role: "admin" });
    member = await h.signIn();
  });
  afterAll(async () => {
    await h?.close();
  });

  it("lists published curated content newest first, to signed-in users", async () => {
    const { publishCuratedContent } = await import("@agora/domain/lifestyle/publish-curated-content");
    const older = await publishCuratedContent(h.runtime.lifestyle, { title: "Older", body: "A" });
    h.clock.advance(1_000);
    const newer = await publishCuratedContent(h.runtime.lifestyle, { title: "Newer", body: "B" });
    const res = await h.get<Envelope<{ id: string; title: string }[]>>("/api/v1/curated-content", {
      token: member.accessToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((item) => item.id)).toEqual([newer.id, older.id]);
    expect(res.body.meta).toEqual({ limit: 20, offset: 0, total: 2 });
    expect((await h.get("/api/v1/curated-content")).status).toBe(401);
  });

  it("creates announcements (admins only, audited); members list the published ones newest first", async () => {
    const post = (s: SignedIn, body: unknown) =>
      h.post<Envelope<Announcement>>("/api/v1/admin/announcements", body, { token: s.accessToken });
    const first = await post(admin, { title: "Welcome", body: "Hello all" });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ title: "Welcome", published: true });
    expect(first.body.data.published_at).not.toBeNull();
    h.clock.advance(1_000);
    const draft = await post(admin, { title: "Draft", body: "Not yet", published: false });
    expect(draft.body.data).toMatchObject({ published: false, published_at: null });
    h.clock.advance(1_000);
    const second = await post(admin, { title: "Second", body: "News" });

    const forbidden = await post(member, { title: "Mine", body: "x" });
    expect(forbidden.status).toBe(403);
    expect((await post(admin, { title: "", body: "x" })).status).toBe(422);
    expect((await post(admin, { title: "t" })).status).toBe(422);
    expect((await h.post("/api/v1/admin/announcements", { title: "t", body: "b" })).status).toBe(401);

    const list = await h.get<Envelope<Announcement[]>>("/api/v1/announcements", {
      token: member.accessToken,
    });
    expect(list.body.data.map((a) => a.id)).toEqual([second.body.data.id, first.body.data.id]);
    const { rows } = await h.db.sql.query<{ target_id: string }>(
      "SELECT target_id FROM audit_events WHERE action = 'announcement.created' ORDER BY created_at",
    );
    expect(rows.map((row) => row.target_id)).toEqual([
      first.body.data.id,
      draft.body.data.id,
      second.body.data.id,
    ]);
    expect((await h.get("/api/v1/announcements")).status).toBe(401);
  });
});

describe("meetings", () => {
  let h: Harness;
  let host: SignedIn;
  let guest: SignedIn;

  beforeAll(async () => {
    h = await createHarness({ seed: false, config: { video } });
    host = await h.signIn();
    guest = await h.signIn();
  });
  afterAll(async () => {
    await h?.close();
  });

  const schedule = async (s: SignedIn, title = "Standup", startsInMs = 3_600_000) => {
    const res = await h.post<Envelope<Meeting>>(
      "/api/v1/meetings",
      { title, starts_at: new Date(h.clock.now().getTime() + startsInMs).toISOString() },
      { token: s.accessToken },
    );
    expect(res.status).toBe(201);

    return res.body.data;
  };
  const act = <T>(s: SignedIn, id: string, action: "join" | "leave" | "end") =>
    h.post<Envelope<T>>(`/api/v1/meetings/${id}/${action}`, undefined, { token: s.accessToken });
  const claims = async (token: string) =>
    (await jwtVerify(token, new TextEncoder().encode(video.apiSecret), { issuer: video.apiKey })).payload as {
      sub: string;
      exp: number;
      nbf?: number;
      iat?: number;
      video: { room: string; roomJoin: boolean; roomAdmin?: boolean };
    };

  it("schedules a meeting hosted by the caller and lists open ones soonest first", async () => {
    const later = await schedule(host, "Later", 7_200_000);
    const sooner = await schedule(guest, "Sooner", 600_000);
    expect(later).toMatchObject({ host_id: host.user.id, status: "scheduled", title: "Later" });
    const list = await h.get<Envelope<Meeting[]>>("/api/v1/meetings", { token: guest.accessToken });
    const ids = list.body.data.map((meeting) => meeting.id);
    expect(ids.indexOf(sooner.id)).toBeLessThan(ids.indexOf(later.id));
    for (const body of [
      {},
      { title: "x" },
      { title: "", starts_at: new Date().toISOString() },
      { title: "x", starts_at: "tomorrow" },
    ]) {
      expect((await h.post("/api/v1/meetings", body, { token: host.accessToken })).status).toBe(422);
    }
    expect((await h.get("/api/v1/meetings")).status).toBe(401);
  });

  it("joins with a LiveKit token for this room and user, 10 minutes, room admin for the host only; the host's join activates it", async () => {
    const meeting = await schedule(host);
    const guestJoin = await act<Participant>(guest, meeting.id, "join");
    expect(guestJoin.status).toBe(200);
    expect(guestJoin.body.data).toMatchObject({
      meeting_id: meeting.id,
      user_id: guest.user.id,
      video_url: video.url,
    });
    const guestClaims = await claims(guestJoin.body.data.participant_token);
    expect(guestClaims.sub).toBe(guest.user.id);
    expect(guestClaims.video).toMatchObject({ room: meeting.id, roomJoin: true });
    expect(guestClaims.video.roomAdmin ?? false).toBe(false);
    const issuedAt = guestClaims.nbf ?? guestClaims.iat ?? 0;
    expect(guestClaims.exp - issuedAt).toBeLessThanOrEqual(600);
    expect(guestClaims.exp - issuedAt).toBeGreaterThan(0);
    expect(
      (await h.get<Envelope<Meeting[]>>("/api/v1/meetings", { token: host.accessToken })).body.data.find(
        (m) => m.id === meeting.id,
      )?.status,
    ).toBe("scheduled");

    const hostJoin = await act<Participant>(host, meeting.id, "join");
    expect((await claims(hostJoin.body.data.participant_token)).video).toMatchObject({
      room: meeting.id,
      roomAdmin: true,
    });
    expect(
      (await h.get<Envelope<Meeting[]>>("/api/v1/meetings", { token: host.accessToken })).body.data.find(
        (m) => m.id === meeting.id,
      )?.status,
    ).toBe("active");

    // Joining again is the same participation.
    h.clock.advance(5_000);
    const again = await act<Participant>(guest, meeting.id, "join");
    expect(again.body.data.joined_at).toBe(guestJoin.body.data.joined_at);
    const { rows } = await h.db.sql.query(
      "SELECT 1 FROM meeting_participants WHERE meeting_id = $1 AND user_id = $2",
      [meeting.id, guest.user.id],
    );
    expect(rows).toHaveLength(1);
  });

  it("leaves (200, then 404 with no active participation); ends for the host only; an ended meeting refuses joins and leaves the list", async () => {
    const meeting = await schedule(host);
    await act(guest, meeting.id, "join");
    const left = await act<{ left_at: string }>(guest, meeting.id, "leave");
    expect(left.status).toBe(200);
    expect((await act(guest, meeting.id, "leave")).status).toBe(404);
    await act(guest, meeting.id, "join");

    const notHost = await act(guest, meeting.id, "end");
    expect(notHost.status).toBe(403);
    expect(notHost.body.error?.code).toBe("forbidden");
    const ended = await act<Meeting>(host, meeting.id, "end");
    expect(ended.status).toBe(200);
    expect(ended.body.data.status).toBe("ended");
    expect((await act<Meeting>(host, meeting.id, "end")).body.data.status).toBe("ended");
    const { rows } = await h.db.sql.query(
      "SELECT 1 FROM meeting_participants WHERE meeting_id = $1 AND left_at IS NULL",
      [meeting.id],
    );
    expect(rows).toHaveLength(0);

    const late = await act(guest, meeting.id, "join");
    expect(late.status).toBe(422);
    expect(late.body.error?.code).toBe("meeting_ended");
    const list = await h.get<Envelope<Meeting[]>>("/api/v1/meetings", { token: guest.accessToken });
    expect(list.body.data.map((m) => m.id)).not.toContain(meeting.id);
  });

  it("answers 404 for an unknown or malformed meeting on join, leave and end, and 401 without a token", async () => {
    for (const id of [h.runtime.ids.next(), "nope"]) {
      for (const action of ["join", "leave", "end"] as const) {
        const res = await act(host, id, action);
        expect(res.status, `${action} ${id}`).toBe(404);
      }
    }
    const meeting = await schedule(host);
    expect((await h.post(`/api/v1/meetings/${meeting.id}/join`)).status).toBe(401);
  });

  it.skipIf(!onPostgres)(
    "never leaves an ended meeting with an active participant when joins race an end (PostgreSQL only: parallel connections)",
    async () => {
      for (let round = 0; round < 5; round += 1) {
        const meeting = await schedule(host);
        const members = await Promise.all(Array.from({ length: 6 }, () => h.signIn()));
        const joins = members.map((member) => act(member, meeting.id, "join"));
        const end = act(host, meeting.id, "end");
        const statuses = (await Promise.all(joins)).map((res) => res.status);
        expect((await end).status).toBe(200);
        expect(statuses.every((status) => status === 200 || status === 422)).toBe(true);
        const { rows } = await h.db.sql.query<{ active: number; late: number }>(
          `SELECT count(*) FILTER (WHERE p.left_at IS NULL)::int AS active,
                  count(*) FILTER (WHERE p.joined_at > m.ended_at)::int AS late
             FROM meeting_participants p JOIN meetings m ON m.id = p.meeting_id WHERE m.id = $1`,
          [meeting.id],
        );
        expect(rows[0]).toEqual({ active: 0, late: 0 });
      }
    },
  );
});

describe("meetings without a video service", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("answers 503 video_unavailable on join and records no participation", async () => {
    const host = await h.signIn();
    const created = await h.post<Envelope<Meeting>>(
      "/api/v1/meetings",
      { title: "No video", starts_at: new Date().toISOString() },
      { token: host.accessToken },
    );
    const res = await h.post<Envelope<null>>(`/api/v1/meetings/${created.body.data.id}/join`, undefined, {
      token: host.accessToken,
    });
    expect(res.status).toBe(503);
    expect(res.body.error?.code).toBe("video_unavailable");
    const { rows } = await h.db.sql.query("SELECT 1 FROM meeting_participants");
    expect(rows).toHaveLength(0);
    const { rows: meeting } = await h.db.sql.query<{ status: string }>(
      "SELECT status FROM meetings WHERE id = $1",
      [created.body.data.id],
    );
    expect(meeting[0]?.status).toBe("scheduled");
  });
});
