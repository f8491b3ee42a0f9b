// Idempotency-Key on every creating operation that opts in through its contract's `idempotencyKey`
// flag and is served by the generic protocol (http/idempotency.ts; docs/retries.md). One table,
// one row per operation: 10 parallel requests with one key make one record (PostgreSQL), a replay
// carries `Idempotent-Replayed: true` and the first answer, another body with the key is 409.
import { onPostgres } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn, type TestResponse } from "../../test/harness";
import { type LocalS3, startLocalS3 } from "../../test/s3";

type Body = {
  data: Record<string, unknown> & { id?: string };
  error: { code: string } | null;
  request_id: string;
};

/** One covered operation: where it is, two different bodies, who calls it, and its records. */
type Case = {
  name: string;
  /** Prepares what the operation needs (called once per test) and answers its request. */
  setup: () => Promise<{
    path: string;
    body: Record<string, unknown>;
    other: Record<string, unknown>;
    caller: SignedIn;
    /** How many records the operation made, or null when it changes a record (payment evidence). */
    records: () => Promise<number | null>;
  }>;
};

describe("Idempotency-Key on the creating operations", () => {
  let s3: LocalS3;
  let h: Harness;
  let member: SignedIn;
  let admin: SignedIn;
  let run = 0;

  beforeAll(async () => {
    s3 = await startLocalS3();
    h = await createHarness({ config: { s3: s3.config } });
    member = await h.signIn();
    admin = await h.signIn({ role: "admin" });
  });
  afterAll(async () => {
    await h?.close();
    await s3?.close();
  });

  const count = async (sql: string, params: unknown[]) =>
    (await h.db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]?.n ?? 0;
  const send = (path: string, body: unknown, caller: SignedIn, key: string) =>
    h.post<Body>(path, body, { token: caller.accessToken, headers: { "idempotency-key": key } });
  const moment = async (author: SignedIn) => {
    const res = await h.post<Body>(
      "/api/v1/community/moments",
      { body: "A moment" },
      { token: author.accessToken },
    );
    expect(res.status).toBe(201);

    return String(res.body.data.id);
  };

  const cases: Case[] = [
    {
      name: "manual sales",
      setup: async () => {
        const seller = await h.provider();
        return {
          path: "/api/v1/providers/me/sales",
          body: { amount: 2500, currency: "USD", description: "Catering" },
          other: { amount: 2600, currency: "USD", description: "Catering" },
          caller: seller,
          records: () => count("sales WHERE provider_id = $1", [seller.providerId]),
        };
      },
    },
    {
      name: "moments",
      setup: async () => {
        const author = await h.signIn();
        return {
          path: "/api/v1/community/moments",
          body: { body: "Sunset" },
          other: { body: "Sunrise" },
          caller: author,
          records: () => count("moments WHERE author_id = $1", [author.user.id]),
        };
      },
    },
    {
      name: "comments",
      setup: async () => {
        const id = await moment(member);
        return {
          path: `/api/v1/community/moments/${id}/comments`,
          body: { body: "Nice" },
          other: { body: "Nicer" },
          caller: member,
          records: () => count("moment_comments WHERE moment_id = $1", [id]),
        };
      },
    },
    {
      name: "reports",
      setup: async () => {
        const id = await moment(member);
        const reporter = await h.signIn();
        return {
          path: `/api/v1/community/moments/${id}/report`,
          body: { reason: "spam" },
          other: { reason: "spam", note: "Links" },
          caller: reporter,
          records: () => count("reports WHERE target_id = $1", [id]),
        };
      },
    },
    {
      name: "conversations",
      setup: async () => {
        const [one, two, three] = [await h.signIn(), await h.signIn(), await h.signIn()];
        return {
          path: "/api/v1/chat/conversations",
          body: { other_user_id: two.user.id },
          other: { other_user_id: three.user.id },
          caller: one,
          records: () => count("conversations WHERE user_a_id = $1 OR user_b_id = $1", [one.user.id]),
        };
      },
    },
    {
      name: "messages",
      setup: async () => {
        const [one, two] = [await h.signIn(), await h.signIn()];
        const conversation = await h.post<Body>(
          "/api/v1/chat/conversations",
          { other_user_id: two.user.id },
          { token: one.accessToken },
        );
        const id = String(conversation.body.data.id);
        return {
          path: `/api/v1/chat/conversations/${id}/messages`,
          body: { body: "Hello" },
          other: { body: "Hello again" },
          caller: one,
          records: () => count("chat_messages WHERE conversation_id = $1", [id]),
        };
      },
    },
    {
      name: "upload tickets",
      setup: async () => {
        const owner = await h.signIn();
        return {
          path: "/api/v1/media/upload",
          body: { purpose: "moment", mime_type: "image/jpeg", size_bytes: 1000 },
          other: { purpose: "moment", mime_type: "image/png", size_bytes: 1000 },
          caller: owner,
          records: () => count("media_assets WHERE owner_id = $1", [owner.user.id]),
        };
      },
    },
    {
      name: "payment evidence",
      setup: async () => {
        const shop = await h.orderable({ priceAmount: 700 });
        const payer = await h.signIn();
        const order = await h.post<Body>(
          "/api/v1/orders",
          { menu_item_id: shop.itemId, quantity: 1 },
          { token: payer.accessToken },
        );
        const payment = await send(
          `/api/v1/orders/${order.body.data.id}/payments`,
          { method: "walletone_qr" },
          payer,
          `pay-${run}`,
        );
        return {
          path: `/api/v1/payments/${payment.body.data.id}/evidence`,
          body: { note: "Paid at 14:05" },
          other: { note: "Paid at 14:06" },
          caller: payer,
          records: async () => null,
        };
      },
    },
    {
      name: "device registration",
      setup: async () => {
        const owner = await h.signIn();
        return {
          path: "/api/v1/devices",
          body: { token: `fcm-token-${owner.user.id}`, platform: "android" },
          other: { token: `fcm-token-${owner.user.id}`, platform: "ios" },
          caller: owner,
          records: () => count("devices WHERE user_id = $1", [owner.user.id]),
        };
      },
    },
    {
      name: "meetings",
      setup: async () => {
        const host = await h.signIn();
        return {
          path: "/api/v1/meetings",
          body: { title: "Community call", starts_at: "2026-12-01T18:00:00Z" },
          other: { title: "Another call", starts_at: "2026-12-01T18:00:00Z" },
          caller: host,
          records: () => count("meetings WHERE host_id = $1", [host.user.id]),
        };
      },
    },
    {
      name: "announcements",
      setup: async () => {
        const title = `Maintenance ${h.runtime.ids.next()}`;
        return {
          path: "/api/v1/admin/announcements",
          body: { title, body: "Read-only from 02:00." },
          other: { title, body: "Read-only from 03:00." },
          caller: admin,
          records: () => count("announcements WHERE title = $1", [title]),
        };
      },
    },
  ];

  describe.each(cases)("$name", ({ setup }) => {
    it("replays the first answer for the same key and body, and refuses another body with 409", async () => {
      run += 1;
      const { path, body, other, caller, records } = await setup();
      const key = `replay-${run}`;
      const first = await send(path, body, caller, key);
      expect(first.status).toBeLessThan(300);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      const before = await records();

      const replay = await send(path, body, caller, key);
      expect(replay.status).toBe(first.status);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body.data).toEqual(first.body.data);
      expect(replay.body.request_id).not.toBe(first.body.request_id);
      expect(await records()).toBe(before);

      const changed = await send(path, other, caller, key);
      expect(changed.status).toBe(409);
      expect(changed.body.error?.code).toBe("idempotency_conflict");
      expect(await records()).toBe(before);

      // The key is the caller's: another caller's same key is a request of its own (or refused as
      // that caller, never the first caller's answer).
      const stranger = await h.signIn({ role: caller.user.role });
      const theirs = await send(path, body, stranger, key);
      expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    });

    it.skipIf(!onPostgres)("makes one record of 10 parallel requests with one key", async () => {
      run += 1;
      const { path, body, caller, records } = await setup();
      const before = await records();
      const key = `parallel-${run}`;
      const results: TestResponse<Body>[] = await Promise.all(
        Array.from({ length: 10 }, () => send(path, body, caller, key)),
      );
      for (const res of results) {
        if (res.status === 409) {
          expect(res.body.error?.code).toBe("idempotency_in_progress");
          expect(res.headers.get("retry-after")).toBe("1");
        } else {
          expect(res.status).toBeLessThan(300);
        }
      }
      const fresh = results.filter(
        (res) => res.status < 300 && res.headers.get("idempotent-replayed") === null,
      );
      expect(fresh).toHaveLength(1);
      const answered = results.filter((res) => res.status < 300);
      expect(new Set(answered.map((res) => JSON.stringify(res.body.data))).size).toBe(1);
      if (before !== null) {
        expect(await records()).toBe(before + 1);
      }
    });
  });

  it("counts a retried manual sale once in the dashboard's revenue", async () => {
    const seller = await h.provider();
    const sale = { amount: 4200, currency: "EUR", description: "Market stall" };
    const first = await send("/api/v1/providers/me/sales", sale, seller, "stall-1");
    const retried = await send("/api/v1/providers/me/sales", sale, seller, "stall-1");
    expect(first.status).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(retried.body.data.id).toBe(first.body.data.id);

    const dashboard = await h.get<{ data: { revenue_30d: { currency: string; manual_sales: number }[] } }>(
      "/api/v1/providers/me/dashboard",
      { token: seller.accessToken },
    );
    expect(dashboard.body.data.revenue_30d).toEqual([
      expect.objectContaining({ currency: "EUR", manual_sales: 4200 }),
    ]);
  });

  it("runs a request without a key as before: two requests, two records", async () => {
    const author = await h.signIn();
    for (const text of ["One", "One"]) {
      const res = await h.post<Body>(
        "/api/v1/community/moments",
        { body: text },
        { token: author.accessToken },
      );
      expect(res.headers.get("idempotent-replayed")).toBeNull();
    }
    expect(await count("moments WHERE author_id = $1", [author.user.id])).toBe(2);
  });

  it("records a refusal and replays it; a key is not recorded for a request that failed validation", async () => {
    const author = await h.signIn();
    const missing = h.runtime.ids.next();
    const path = `/api/v1/community/moments/${missing}/comments`;
    const first = await send(path, { body: "Hi" }, author, "refused-1");
    expect(first.status).toBe(404);
    const again = await send(path, { body: "Hi" }, author, "refused-1");
    expect(again.status).toBe(404);
    expect(again.headers.get("idempotent-replayed")).toBe("true");

    const invalid = await send("/api/v1/meetings", { title: "" }, author, "invalid-1");
    expect(invalid.status).toBe(422);
    const valid = await send(
      "/api/v1/meetings",
      { title: "Now valid", starts_at: "2026-12-01T18:00:00Z" },
      author,
      "invalid-1",
    );
    expect(valid.status).toBe(201);
    expect(valid.headers.get("idempotent-replayed")).toBeNull();
  });

  it("keeps a replayed answer sealed at rest: the stored record holds no part of the body", async () => {
    const author = await h.signIn();
    const res = await send("/api/v1/community/moments", { body: "a secret sunset" }, author, "sealed-1");
    expect(res.status).toBe(201);
    const { rows } = await h.db.sql.query<{ outcome: unknown; sealed_secret: string | null }>(
      "SELECT outcome, sealed_secret FROM idempotency_keys WHERE scope = $1 AND key = $2",
      [author.user.id, "sealed-1"],
    );
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0])).not.toContain("secret sunset");
    expect(rows[0]?.sealed_secret).toEqual(expect.any(String));
  });
});
