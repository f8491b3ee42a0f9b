import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type TestResponse } from "../../test/harness";

type Envelope = {
  success: boolean;
  error: { code: string; details?: { path: string; message: string }[] } | null;
};

const expectRefused = (res: TestResponse<Envelope>, path: string) => {
  expect(res.status).toBe(422);
  expect(res.body.success).toBe(false);
  expect(res.body.error?.code).toBe("validation_failed");
  expect(res.body.error?.details?.map((issue) => issue.path)).toContain(path);
};

describe("input PostgreSQL cannot store is 422 validation_failed, never a 500", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it("refuses a NUL character in a body field, and creates nothing", async () => {
    const res = await h.post<Envelope>("/api/v1/auth/register", {
      email: "nul@example.com",
      username: "nul_user",
      password: "correct horse battery",
      display_name: "a\u0000b",
    });
    expectRefused(res, "display_name");
    const { rows } = await h.db.sql.query("SELECT 1 FROM users WHERE email = 'nul@example.com'");
    expect(rows).toHaveLength(0);
  });

  it("refuses a NUL character nested in a body, in a query parameter and in a path id", async () => {
    const seller = await h.provider();
    expectRefused(
      await h.post<Envelope>(
        "/api/v1/providers/me/sales",
        { amount: 100, currency: "USD", description: "tea", customer_label: "x\u0000" },
        { token: seller.accessToken },
      ),
      "customer_label",
    );
    expectRefused(await h.get<Envelope>("/api/v1/listings?q=a%00b"), "q");
    const buyer = await h.signIn();
    expectRefused(
      await h.post<Envelope>(
        "/api/v1/orders/0190a9a0-0000-7000-8000-000000000000%00/payments",
        { method: "walletone_qr" },
        { token: buyer.accessToken, headers: { "idempotency-key": "nul-path-1" } },
      ),
      "id",
    );
  });

  it("refuses a lone surrogate (ill-formed UTF-16) in a body field, and keeps surrogate pairs", async () => {
    const admin = await h.signIn({ role: "admin" });
    const announce = (title: string) =>
      h.request<Envelope>("POST", "/api/v1/admin/announcements", {
        token: admin.accessToken,
        rawBody: `{"title":"${title}","body":"a","published":false}`,
        headers: { "content-type": "application/json" },
      });
    expectRefused(await announce("\\udfff"), "title");
    expectRefused(await announce("x\\ud83dy"), "title");
    const { rows } = await h.db.sql.query("SELECT 1 FROM announcements");
    expect(rows).toHaveLength(0);
    expect((await announce("\\ud83d\\udca9 ok")).status).toBe(201);
  });

  it("refuses a date-time PostgreSQL cannot hold (year 0000, or before year 1 in UTC) and takes year 0001", async () => {
    const { itemId } = await h.orderable();
    const buyer = await h.signIn();
    const order = (schedule_at: string, key: string) =>
      h.post<Envelope>(
        "/api/v1/orders",
        { menu_item_id: itemId, quantity: 1, schedule_at },
        { token: buyer.accessToken, headers: { "idempotency-key": key } },
      );
    expectRefused(await order("0000-06-01T12:00:00Z", "year-zero"), "schedule_at");
    expectRefused(await order("0001-01-01T00:30:00+01:00", "before-year-one"), "schedule_at");
    expect((await order("0001-01-01T00:00:00Z", "year-one")).status).toBe(201);

    const seller = await h.provider();
    expectRefused(
      await h.post<Envelope>(
        "/api/v1/providers/me/sales",
        { amount: 100, currency: "USD", description: "tea", occurred_at: "0000-01-01T00:00:00Z" },
        { token: seller.accessToken },
      ),
      "occurred_at",
    );
  });
});
