import { onPostgres } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../test/harness";

type Body = { data: { user_id: string; blocked: boolean }; error: { code: string } | null };

describe("blocks", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  const rows = async (blockerId: string) =>
    (
      await h.db.sql.query<{ blocked_id: string }>(
        "SELECT blocked_id FROM user_blocks WHERE blocker_id = $1",
        [blockerId],
      )
    ).rows.map((row) => row.blocked_id);

  it("blocks and unblocks, 200 each time, keeping one row per pair", async () => {
    const ada = await h.signIn();
    const bob = await h.createUser();
    for (let round = 0; round < 2; round += 1) {
      const res = await h.post<Body>(`/api/v1/community/users/${bob.id}/block`, undefined, {
        token: ada.accessToken,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ user_id: bob.id, blocked: true });
    }
    expect(await rows(ada.user.id)).toEqual([bob.id]);
    expect(await h.runtime.community.repos.blocks.isBlockedEitherWay(bob.id, ada.user.id)).toBe(true);
    expect(await h.runtime.community.repos.blocks.isBlockedEitherWay(ada.user.id, bob.id)).toBe(true);

    for (let round = 0; round < 2; round += 1) {
      const res = await h.delete<Body>(`/api/v1/community/users/${bob.id}/block`, { token: ada.accessToken });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ user_id: bob.id, blocked: false });
    }
    expect(await rows(ada.user.id)).toEqual([]);
    expect(await h.runtime.community.repos.blocks.isBlockedEitherWay(bob.id, ada.user.id)).toBe(false);
  });

  it("answers 422 for oneself and changes nothing", async () => {
    const ada = await h.signIn();
    for (const method of ["POST", "DELETE"]) {
      const res = await h.request<Body>(method, `/api/v1/community/users/${ada.user.id}/block`, {
        token: ada.accessToken,
      });
      expect(res.status).toBe(422);
      expect(res.body.error?.code).toBe("validation_failed");
    }
    expect(await rows(ada.user.id)).toEqual([]);
  });

  it("answers 404 for an unknown, a malformed or a deleted user, and 401 without a token", async () => {
    const ada = await h.signIn();
    const gone = await h.createUser({ status: "deleted" });
    for (const id of [h.runtime.ids.next(), "not-a-uuid", gone.id]) {
      const res = await h.post<Body>(`/api/v1/community/users/${id}/block`, undefined, {
        token: ada.accessToken,
      });
      expect(res.status, id).toBe(404);
      expect(res.body.error?.code).toBe("not_found");
    }
    expect((await h.post(`/api/v1/community/users/${gone.id}/block`)).status).toBe(401);
    expect(await rows(ada.user.id)).toEqual([]);
  });

  it.skipIf(!onPostgres)(
    "keeps one row when the same block arrives 10 times in parallel (PostgreSQL only: parallel connections)",
    async () => {
      const ada = await h.signIn();
      const bob = await h.createUser();
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          h.post(`/api/v1/community/users/${bob.id}/block`, undefined, { token: ada.accessToken }),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual(Array(10).fill(200));
      expect(await rows(ada.user.id)).toEqual([bob.id]);
    },
  );
});
