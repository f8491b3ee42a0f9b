import { onPostgres } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import { type LocalS3, startLocalS3 } from "../../../test/s3";

type Envelope<T> = { data: T; error: { code: string } | null };
type DataExport = {
  id: string | null;
  status: "none" | "pending" | "ready" | "expired" | "failed";
  requested_at: string | null;
  ready_at: string | null;
  expires_at: string | null;
  download_url: string | null;
  download_url_expires_at: string | null;
};
type ExportDocument = {
  format: string;
  user: { id: string; email: string };
  orders: { id: string; role: string }[];
  messages: { id: string; body: string; sent_by_me: boolean }[];
  [key: string]: unknown;
};

const HOUR = 3600 * 1000;
const LINK_BASE = "https://api.agora.test";

describe("data exports: /api/v1/auth/me/export", () => {
  let s3: LocalS3;
  let h: Harness;

  beforeAll(async () => {
    s3 = await startLocalS3();
    h = await createHarness({ config: { s3: s3.config, publicApiUrl: LINK_BASE } });
  });
  afterAll(async () => {
    await h?.close();
    await s3?.close();
  });

  const as = (s: SignedIn) => ({ token: s.accessToken });
  const request = (who: SignedIn) =>
    h.post<Envelope<DataExport>>("/api/v1/auth/me/export", undefined, as(who));
  const status = async (who: SignedIn) => {
    const res = await h.get<Envelope<DataExport>>("/api/v1/auth/me/export", as(who));
    expect(res.status).toBe(200);

    return res.body.data;
  };
  const drain = async () => {
    for (let i = 0; i < 5; i += 1) {
      await h.runOutboxOnce();
    }
  };
  const order = async (who: SignedIn, itemId: string) => {
    const res = await h.post<Envelope<{ id: string }>>(
      "/api/v1/orders",
      { menu_item_id: itemId, quantity: 1 },
      { ...as(who), headers: { "idempotency-key": crypto.randomUUID() } },
    );
    expect(res.status).toBe(201);

    return res.body.data.id;
  };
  const conversation = async (from: SignedIn, to: SignedIn) => {
    const res = await h.post<Envelope<{ id: string }>>(
      "/api/v1/chat/conversations",
      { other_user_id: to.user.id },
      as(from),
    );
    expect([200, 201]).toContain(res.status);

    return res.body.data.id;
  };
  const send = async (from: SignedIn, conversationId: string, body: string) => {
    const res = await h.post<Envelope<{ id: string }>>(
      `/api/v1/chat/conversations/${conversationId}/messages`,
      { body },
      as(from),
    );
    expect(res.status).toBe(201);

    return res.body.data.id;
  };
  const downloadLink = (email: string): string => {
    const mail = [...(h.mails?.sent ?? [])]
      .reverse()
      .find((m) => m.to === email && m.subject.includes("data export"));
    const link = mail?.text.match(/https:\/\/api\.agora\.test\/\S+/)?.[0];
    if (!link) {
      throw new Error(`no export link mailed to ${email}`);
    }

    return link.replace(LINK_BASE, "");
  };

  it("builds a downloadable document with the caller's orders and messages and nobody else's, once a day, then expires it", async () => {
    const shop = await h.orderable();
    const ada = await h.signIn();
    const bob = await h.signIn();
    const eve = await h.signIn();
    expect(await status(ada)).toMatchObject({ id: null, status: "none", download_url: null });

    const adasOrder = await order(ada, shop.itemId);
    const evesOrder = await order(eve, shop.itemId);
    const adaBob = await conversation(ada, bob);
    const sent = await send(ada, adaBob, "hello bob");
    const received = await send(bob, adaBob, "hello ada");
    const bobEve = await conversation(bob, eve);
    const othersMessage = await send(eve, bobEve, "between bob and eve");

    const requested = await request(ada);
    expect(requested.status).toBe(202);
    expect(requested.body.data).toMatchObject({
      status: "pending",
      ready_at: null,
      expires_at: null,
      download_url: null,
    });
    expect(requested.body.data.requested_at).not.toBeNull();
    expect((await status(ada)).status).toBe("pending");

    // One a day: refused with the seconds left, whatever the export's state.
    const again = await request(ada);
    expect(again.status).toBe(429);
    expect(again.body.error?.code).toBe("rate_limited");
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(23 * 3600);
    expect(Number(again.headers.get("retry-after"))).toBeLessThanOrEqual(24 * 3600);

    await drain();
    const ready = await status(ada);
    expect(ready.status).toBe("ready");
    expect(ready.id).toBe(requested.body.data.id);
    expect(ready.download_url).not.toBeNull();
    expect(Date.parse(ready.expires_at ?? "") - Date.parse(ready.ready_at ?? "")).toBe(24 * HOUR);
    expect(Date.parse(ready.download_url_expires_at ?? "") - h.clock.now().getTime()).toBe(300_000);

    const object = await fetch(ready.download_url ?? "");
    expect(object.status).toBe(200);
    expect(object.headers.get("content-type")).toContain("application/json");
    const document = (await object.json()) as ExportDocument;
    expect(document.format).toBe("agora-export/1");
    expect(document.user.id).toBe(ada.user.id);
    expect(JSON.stringify(document)).not.toContain("password");
    const orderIds = document.orders.map((o) => o.id);
    expect(orderIds).toContain(adasOrder);
    expect(orderIds).not.toContain(evesOrder);
    const messageIds = document.messages.map((m) => m.id);
    expect(messageIds).toEqual(expect.arrayContaining([sent, received]));
    expect(messageIds).not.toContain(othersMessage);
    expect(document.messages.find((m) => m.id === sent)?.sent_by_me).toBe(true);
    expect(document.messages.find((m) => m.id === received)?.sent_by_me).toBe(false);
    for (const key of ["provider", "listings", "payments", "moments", "comments", "notifications", "media"]) {
      expect(document, key).toHaveProperty(key);
    }

    // The inbox notice, and the mail's public link: 302 to a fresh read URL.
    const inbox = await h.get<Envelope<{ kind: string; data: Record<string, unknown> }[]>>(
      "/api/v1/notifications",
      as(ada),
    );
    expect(inbox.body.data.filter((n) => n.kind === "account.export_ready")).toHaveLength(1);
    const link = downloadLink(ada.user.email);
    const redirected = await h.get(link);
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get("cache-control")).toBe("no-store");
    const fromMail = await fetch(redirected.headers.get("location") ?? "");
    expect(((await fromMail.json()) as ExportDocument).user.id).toBe(ada.user.id);
    expect((await h.get("/api/v1/auth/me/export/download?token=not-a-token")).status).toBe(404);

    // Redelivery builds nothing again and writes no second notice.
    await drain();
    const inboxAgain = await h.get<Envelope<{ kind: string }[]>>("/api/v1/notifications", as(ada));
    expect(inboxAgain.body.data.filter((n) => n.kind === "account.export_ready")).toHaveLength(1);

    // A day later the expiry event is due: the object is gone, the link 404s, GET says expired.
    const key = `exports/${ada.user.id}/${requested.body.data.id}.json`;
    expect(await s3.has(key)).toBe(true);
    h.clock.advance(24 * HOUR + 1000);
    // Access tokens are short-lived: a new session of the same account.
    const later = await h.openSession(ada.user);
    expect((await status(later)).status).toBe("expired");
    await drain();
    expect(await s3.has(key)).toBe(false);
    expect((await status(later)).status).toBe("expired");
    expect((await status(later)).download_url).toBeNull();
    expect((await h.get(link)).status).toBe(404);

    // The next day's request is allowed again.
    expect((await request(later)).status).toBe(202);
  });

  it("deleting the account deletes its export's object", async () => {
    const zoe = await h.signIn();
    const requested = await request(zoe);
    expect(requested.status).toBe(202);
    await drain();
    const key = `exports/${zoe.user.id}/${requested.body.data.id}.json`;
    expect(await s3.has(key)).toBe(true);
    const link = downloadLink(zoe.user.email);
    expect((await h.delete("/api/v1/auth/me", as(zoe))).status).toBe(200);
    await drain();
    expect(await s3.has(key)).toBe(false);
    expect((await h.get(link)).status).toBe(404);
  });

  it("bounds the public download link per client address (RATE_LIMIT_AUTH_PER_IP): 429 with Retry-After", async () => {
    const limited = await createHarness({ seed: false, config: { rateLimitAuthPerIp: 2 } });
    try {
      const tries = [];
      for (let i = 0; i < 3; i += 1) {
        tries.push(await limited.get<Envelope<null>>(`/api/v1/auth/me/export/download?token=guess-${i}`));
      }
      expect(tries.map((res) => res.status)).toEqual([404, 404, 429]);
      expect(tries[2]?.body.error?.code).toBe("rate_limited");
      expect(Number(tries[2]?.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it.skipIf(!onPostgres)(
    "parallel requests make one export: one 202, the rest 429 (PostgreSQL only: parallel connections)",
    async () => {
      const sam = await h.signIn();
      const answers = await Promise.all(Array.from({ length: 6 }, () => request(sam)));
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses).toEqual([202, 429, 429, 429, 429, 429]);
      const { rows } = await h.db.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM data_exports WHERE user_id = $1",
        [sam.user.id],
      );
      expect(rows[0]?.n).toBe(1);
    },
  );
});
