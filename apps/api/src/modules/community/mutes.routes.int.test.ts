import { createMemoryPush } from "@agora/adapters/push/memory-push";
import type { CommentDto, MomentDto, MuteDto, MuteStateDto } from "@agora/contracts/community";
import type { ErrorEnvelope, PageMeta } from "@agora/contracts/envelope";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type ErrorBody = Pick<ErrorEnvelope, "error">;

/** docs/safety.md, "Mutes". */
describe("mutes", () => {
  let h: Harness;
  const push = createMemoryPush();

  beforeAll(async () => {
    h = await createHarness({ seed: false, push });
  });
  afterAll(async () => {
    await h?.close();
  });

  const as = (who: SignedIn) => ({ token: who.accessToken });
  const publish = async (who: SignedIn, body = "hello") => {
    const res = await h.post<{ data: MomentDto }>("/api/v1/community/moments", { body }, as(who));
    expect(res.status).toBe(201);
    h.clock.advance(1000);

    return res.body.data;
  };
  const mute = (who: SignedIn, userId: string) =>
    h.post<{ data: MuteStateDto } & ErrorBody>(`/api/v1/community/users/${userId}/mute`, undefined, as(who));
  const unmute = (who: SignedIn, userId: string) =>
    h.delete<{ data: MuteStateDto } & ErrorBody>(`/api/v1/community/users/${userId}/mute`, as(who));
  const mutes = (who: SignedIn, query = "") =>
    h.get<{ data: MuteDto[]; meta: PageMeta } & ErrorBody>(`/api/v1/community/mutes${query}`, as(who));
  const feedIds = async (who: SignedIn) =>
    (await h.get<{ data: MomentDto[] }>("/api/v1/community/feed", as(who))).body.data.map((m) => m.id);
  const commentIds = async (momentId: string, who: SignedIn) =>
    (
      await h.get<{ data: CommentDto[] }>(`/api/v1/community/moments/${momentId}/comments`, as(who))
    ).body.data.map((c) => c.id);
  const deliverAll = async () => {
    while ((await h.runOutboxOnce({ batchSize: 200 })).claimed > 0) {
      // next batch
    }
  };

  it("takes a muted user's moments out of the caller's feed (one way, not told), and brings them back on unmute", async () => {
    const ada = await h.signIn();
    const bob = await h.signIn();
    const cy = await h.signIn();
    const byBob = await publish(bob, "bob's");
    const byCy = await publish(cy, "cy's");
    const byAda = await publish(ada, "ada's");
    const res = await mute(ada, bob.user.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ user_id: bob.user.id, muted: true });
    expect((await mute(ada, bob.user.id)).status).toBe(200);
    const seen = await feedIds(ada);
    expect(seen).not.toContain(byBob.id);
    expect(seen).toEqual(expect.arrayContaining([byCy.id, byAda.id]));
    // The muted user still sees the muter, and others still see the muted user.
    expect(await feedIds(bob)).toEqual(expect.arrayContaining([byAda.id, byBob.id]));
    expect(await feedIds(cy)).toContain(byBob.id);
    // Opened by its id, the moment still answers: a mute filters lists, it is not a block.
    expect((await h.get(`/api/v1/community/moments/${byBob.id}/counters`, as(ada))).status).toBe(200);

    const undone = await unmute(ada, bob.user.id);
    expect(undone.body.data).toEqual({ user_id: bob.user.id, muted: false });
    expect(await feedIds(ada)).toContain(byBob.id);
    expect((await unmute(ada, bob.user.id)).status).toBe(200);
  });

  it("takes a muted user's comments out of the caller's comment lists", async () => {
    const ada = await h.signIn();
    const bob = await h.signIn();
    const cy = await h.signIn();
    const moment = await publish(cy);
    const fromBob = await h.post<{ data: CommentDto }>(
      `/api/v1/community/moments/${moment.id}/comments`,
      { body: "from bob" },
      as(bob),
    );
    h.clock.advance(1000);
    const fromCy = await h.post<{ data: CommentDto }>(
      `/api/v1/community/moments/${moment.id}/comments`,
      { body: "from cy" },
      as(cy),
    );
    await mute(ada, bob.user.id);
    expect(await commentIds(moment.id, ada)).toEqual([fromCy.body.data.id]);
    expect(await commentIds(moment.id, cy)).toEqual([fromCy.body.data.id, fromBob.body.data.id]);
  });

  it("lists the caller's mutes, newest first, paged", async () => {
    const ada = await h.signIn();
    const others = [await h.signIn(), await h.signIn(), await h.signIn()];
    for (const other of others) {
      await mute(ada, other.user.id);
      h.clock.advance(1000);
    }
    const first = await mutes(ada, "?limit=2");
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ limit: 2, offset: 0, total: 3 });
    expect(first.body.data.map((m) => m.user.id)).toEqual([others[2]?.user.id, others[1]?.user.id]);
    expect(first.body.data[0]).toEqual({
      user: { id: others[2]?.user.id, username: others[2]?.user.username, display_name: expect.any(String) },
      muted_at: expect.any(String),
    });
    const rest = await mutes(ada, "?limit=2&offset=2");
    expect(rest.body.data.map((m) => m.user.id)).toEqual([others[0]?.user.id]);
    expect((await mutes(others[0] as SignedIn)).body.meta.total).toBe(0);
    expect((await mutes(ada, "?limit=0")).status).toBe(422);
  });

  it("refuses yourself (422) and an unknown user (404)", async () => {
    const ada = await h.signIn();
    const self = await mute(ada, ada.user.id);
    expect(self.status).toBe(422);
    expect(self.body.error?.code).toBe("validation_failed");
    const unknown = await mute(ada, "01935c2f-0c32-7e44-8f50-6b7c8d9eafb0");
    expect(unknown.status).toBe(404);
    expect((await unmute(ada, "01935c2f-0c32-7e44-8f50-6b7c8d9eafb0")).status).toBe(404);
  });

  it("a muted sender's messages still arrive, with no notification or push to the caller; the sender is notified as before", async () => {
    const ada = await h.signIn();
    const bob = await h.signIn();
    await h.post("/api/v1/devices", { token: "ada-muting", platform: "ios" }, as(ada));
    await h.post("/api/v1/devices", { token: "bob-muted", platform: "ios" }, as(bob));
    const conversation = await h.post<{ data: { id: string } }>(
      "/api/v1/chat/conversations",
      { other_user_id: ada.user.id },
      as(bob),
    );
    expect(conversation.status).toBe(201);
    const path = `/api/v1/chat/conversations/${conversation.body.data.id}/messages`;
    await mute(ada, bob.user.id);
    await deliverAll();
    push.clear();
    expect((await h.post(path, { body: "hello ada" }, as(bob))).status).toBe(201);
    await deliverAll();
    const messages = await h.get<{ data: { body: string }[] }>(path, as(ada));
    expect(messages.body.data.map((m) => m.body)).toEqual(["hello ada"]);
    const notices = async (userId: string) =>
      (await h.db.sql.query("SELECT 1 FROM notifications WHERE user_id = $1", [userId])).rows.length;
    expect(await notices(ada.user.id)).toBe(0);
    expect(push.sentTo("ada-muting")).toHaveLength(0);
    // Ada, the muter, still notifies Bob.
    expect((await h.post(path, { body: "hi bob" }, as(ada))).status).toBe(201);
    await deliverAll();
    expect(await notices(bob.user.id)).toBe(1);
    expect(push.sentTo("bob-muted")).toHaveLength(1);
    // Unmuted, Bob's next message notifies her again.
    await unmute(ada, bob.user.id);
    expect((await h.post(path, { body: "again" }, as(bob))).status).toBe(201);
    await deliverAll();
    expect(await notices(ada.user.id)).toBe(1);
  });
});
