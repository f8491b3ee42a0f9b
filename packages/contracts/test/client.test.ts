// The client's transport rules against a scripted fetch (no server): what it retries, with which
// key, and how 401s share one refresh. The end-to-end flows against the real server live in
// apps/api/src/client.e2e.int.test.ts.
import { describe, expect, it } from "vitest";
import { AgoraError, createAgoraClient } from "../src/client";

type Sent = {
  method: string;
  url: string;
  headers: Headers;
  body: string | undefined;
  /** The body as given to fetch (a Blob or bytes for an upload's PUT). */
  raw: RequestInit["body"];
};

const envelope = (status: number, data: unknown, error: { code: string; message: string } | null = null) =>
  new Response(
    JSON.stringify({
      success: error === null,
      data: error ? null : data,
      meta: null,
      error,
      request_id: "req-1",
    }),
    { status, headers: { "content-type": "application/json" } },
  );

/** A fetch that answers from `script` in order and records what was sent. */
const scripted = (script: Array<(sent: Sent) => Response | Promise<Response>>) => {
  const sent: Sent[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request: Sent = {
      method: init?.method ?? "GET",
      url: String(input),
      headers: new Headers(init?.headers),
      body: init?.body === undefined ? undefined : String(init.body),
      raw: init?.body,
    };
    sent.push(request);
    const next = script.shift();
    if (!next) {
      throw new Error(`unexpected request ${request.method} ${request.url}`);
    }

    return next(request);
  };

  return { sent, fetch: fetch as typeof globalThis.fetch };
};

const order = { id: "o-1", status: "pending" };
const session = (access: string) => ({
  access_token: access,
  refresh_token: `refresh-${access}`,
  token_type: "Bearer",
  expires_in: 900,
  user: { id: "u-1" },
});

describe("the client's transport", () => {
  it("retries an order creation after a 503 with the same Idempotency-Key", async () => {
    const { sent, fetch } = scripted([
      () => envelope(503, null, { code: "service_unavailable", message: "busy" }),
      () => envelope(201, order),
    ]);
    const client = createAgoraClient({ baseUrl: "http://api.test/", fetch, retryDelayMs: 1 });

    await expect(client.orders.create({ menu_item_id: "m-1", quantity: 1 })).resolves.toEqual(order);

    expect(sent.map((request) => `${request.method} ${request.url}`)).toEqual([
      "POST http://api.test/api/v1/orders",
      "POST http://api.test/api/v1/orders",
    ]);
    const keys = sent.map((request) => request.headers.get("idempotency-key"));
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it("fills client_message_id on a chat send and keeps it across retries; the caller's is kept as given", async () => {
    const { sent, fetch } = scripted([
      () => Promise.reject(new TypeError("fetch failed")),
      () => envelope(503, null, { code: "service_unavailable", message: "busy" }),
      () => envelope(201, { id: "msg-1" }),
      () => envelope(201, { id: "msg-2" }),
    ]);
    const client = createAgoraClient({ baseUrl: "http://api.test", fetch, retryDelayMs: 1, retries: 3 });
    const body = { body: "hello" };

    await client.chat.send("c-1", body);
    const ids = sent.map(
      (request) => (JSON.parse(request.body ?? "{}") as { client_message_id?: string }).client_message_id,
    );
    expect(ids).toHaveLength(3);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(1);
    // The caller's object is not changed.
    expect(body).toEqual({ body: "hello" });

    await client.chat.send("c-1", { body: "again", client_message_id: "draft-7" });
    expect(JSON.parse(sent[3]?.body ?? "{}")).toEqual({ body: "again", client_message_id: "draft-7" });
  });

  it("uses the caller's idempotency key when given one", async () => {
    const { sent, fetch } = scripted([() => envelope(201, { id: "p-1" })]);
    const client = createAgoraClient({ baseUrl: "http://api.test", fetch });

    await client.orders.createPayment("o-1", { method: "walletone_qr" }, { idempotencyKey: "pay-o-1" });

    expect(sent[0]?.url).toBe("http://api.test/api/v1/orders/o-1/payments");
    expect(sent[0]?.headers.get("idempotency-key")).toBe("pay-o-1");
  });

  it("never retries a write without an idempotency key, and reports the 5xx as AgoraError", async () => {
    const { sent, fetch } = scripted([
      () => envelope(500, null, { code: "internal_error", message: "Internal" }),
    ]);
    const client = createAgoraClient({ baseUrl: "http://api.test", fetch, retryDelayMs: 1 });

    const error = await client.payments
      .submit("p-1", { method: "walletone_qr", version: 1 })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(AgoraError);
    expect(error).toMatchObject({ code: "internal_error", status: 500, requestId: "req-1" });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers.has("idempotency-key")).toBe(false);
  });

  it("sets a key on every creating call and reuses it across a lost response, a 502 and a 409 in progress", async () => {
    const { sent, fetch } = scripted([
      () => Promise.reject(new TypeError("fetch failed")),
      () => envelope(502, null, { code: "internal_error", message: "bad gateway" }),
      () => envelope(201, { id: "m-1" }),
    ]);
    const client = createAgoraClient({ baseUrl: "http://api.test", fetch, retryDelayMs: 1, retries: 3 });

    await expect(client.community.createMoment({ body: "Sunset" })).resolves.toEqual({ id: "m-1" });

    const keys = sent.map((request) => request.headers.get("idempotency-key"));
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
  });

  it("waits the Retry-After of a 429 and of a 409 idempotency_in_progress before retrying", async () => {
    const throttled = (status: number, code: string) => () =>
      new Response(
        JSON.stringify({
          success: false,
          data: null,
          meta: null,
          error: { code, message: "wait" },
          request_id: "r",
        }),
        { status, headers: { "content-type": "application/json", "retry-after": "1" } },
      );
    const { sent, fetch } = scripted([
      throttled(429, "rate_limited"),
      throttled(409, "idempotency_in_progress"),
      () => envelope(201, { id: "s-1" }),
    ]);
    const client = createAgoraClient({ baseUrl: "http://api.test", fetch, retryDelayMs: 1, retries: 2 });
    const started = Date.now();

    await expect(
      client.providers.recordSale({ amount: 100, currency: "USD", description: "Stall" }),
    ).resolves.toEqual({ id: "s-1" });

    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(sent).toHaveLength(3);
  });

  it("does not wait for a Retry-After beyond maxRetryAfterMs, nor retry a 500 or a 409 conflict", async () => {
    const { sent, fetch } = scripted([
      () =>
        new Response(
          JSON.stringify({
            success: false,
            data: null,
            meta: null,
            error: { code: "rate_limited", message: "later" },
            request_id: "r",
          }),
          { status: 429, headers: { "content-type": "application/json", "retry-after": "3600" } },
        ),
      () => envelope(500, null, { code: "internal_error", message: "Internal" }),
      () => envelope(409, null, { code: "idempotency_conflict", message: "other body" }),
    ]);
    const client = createAgoraClient({ baseUrl: "http://api.test", fetch, retryDelayMs: 1 });

    await expect(
      client.meetings.create({ title: "Call", starts_at: "2026-12-01T18:00:00Z" }),
    ).rejects.toMatchObject({
      code: "rate_limited",
    });
    await expect(
      client.meetings.create({ title: "Call", starts_at: "2026-12-01T18:00:00Z" }),
    ).rejects.toMatchObject({
      code: "internal_error",
    });
    await expect(
      client.meetings.create({ title: "Call", starts_at: "2026-12-01T18:00:00Z" }),
    ).rejects.toMatchObject({
      code: "idempotency_conflict",
    });
    expect(sent).toHaveLength(3);
  });

  it("turns retries off with retries: 0, for the client or for one call", async () => {
    const down = () => Promise.reject(new TypeError("fetch failed"));
    const { sent, fetch } = scripted([down, down, down, () => envelope(201, { id: "m-2" })]);
    const off = createAgoraClient({ baseUrl: "http://api.test", fetch, retryDelayMs: 1, retries: 0 });
    await expect(off.community.createMoment({ body: "x" })).rejects.toMatchObject({ code: "network_error" });
    expect(sent).toHaveLength(1);

    const on = createAgoraClient({ baseUrl: "http://api.test", fetch, retryDelayMs: 1 });
    await expect(on.community.createMoment({ body: "x" }, { retries: 0 })).rejects.toMatchObject({
      code: "network_error",
    });
    expect(sent).toHaveLength(2);
    await expect(on.community.createMoment({ body: "x" }, { retries: 1 })).resolves.toEqual({ id: "m-2" });
    expect(sent).toHaveLength(4);
  });

  it("never retries a write without a key, even after a lost response or a 503", async () => {
    const { sent, fetch } = scripted([
      () => Promise.reject(new TypeError("fetch failed")),
      () => envelope(503, null, { code: "service_unavailable", message: "starting" }),
    ]);
    const client = createAgoraClient({ baseUrl: "http://api.test", fetch, retryDelayMs: 1, retries: 5 });

    await expect(client.community.like("m-1")).rejects.toMatchObject({ code: "network_error" });
    await expect(client.community.like("m-1")).rejects.toMatchObject({ code: "service_unavailable" });
    expect(sent).toHaveLength(2);
    expect(sent.every((request) => !request.headers.has("idempotency-key"))).toBe(true);
  });

  it("gives up after the retries with network_error", async () => {
    const down = () => Promise.reject(new TypeError("fetch failed"));
    const { sent, fetch } = scripted([down, down, down]);
    const client = createAgoraClient({ baseUrl: "http://api.test", fetch, retryDelayMs: 1 });

    const error = await client.listings.get("l-1").catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: "network_error", status: 0 });
    expect(sent).toHaveLength(3);
  });

  it("shares one refresh between concurrent 401s and retries each with the new token", async () => {
    const unauthorized = () => envelope(401, null, { code: "unauthorized", message: "expired" });
    let refreshes = 0;
    const answer = (request: Sent) => {
      if (request.url.endsWith("/auth/refresh")) {
        refreshes += 1;

        return envelope(200, session("new"));
      }

      return request.headers.get("authorization") === "Bearer new"
        ? envelope(200, { id: "u-1" })
        : unauthorized();
    };
    const { sent, fetch } = scripted([answer, answer, answer, answer, answer]);
    const kept: unknown[] = [];
    const client = createAgoraClient({
      baseUrl: "http://api.test",
      fetch,
      getAccessToken: () => "old",
      getRefreshToken: () => "refresh-old",
      onSession: (next) => void kept.push(next),
    });

    const [first, second] = await Promise.all([client.auth.me(), client.auth.me()]);

    expect([first, second]).toEqual([{ id: "u-1" }, { id: "u-1" }]);
    expect(refreshes).toBe(1);
    expect(kept).toEqual([session("new")]);
    expect(sent.find((request) => request.url.endsWith("/auth/refresh"))?.body).toBe(
      JSON.stringify({ refresh_token: "refresh-old" }),
    );
  });

  it("calls onUnauthorized for a bearer route called without any session", async () => {
    const { fetch } = scripted([() => envelope(401, null, { code: "unauthorized", message: "no token" })]);
    const seen: AgoraError[] = [];
    const client = createAgoraClient({
      baseUrl: "http://api.test",
      fetch,
      onUnauthorized: (error) => seen.push(error),
    });

    await expect(client.notifications.list()).rejects.toMatchObject({ code: "unauthorized" });
    expect(seen).toHaveLength(1);
  });

  it("does not treat a wrong password (401 on a public route) as a lost session", async () => {
    const { sent, fetch } = scripted([
      () => envelope(401, null, { code: "invalid_credentials", message: "wrong" }),
    ]);
    const seen: AgoraError[] = [];
    const client = createAgoraClient({
      baseUrl: "http://api.test",
      fetch,
      getAccessToken: () => "token",
      getRefreshToken: () => "refresh",
      onUnauthorized: (error) => seen.push(error),
    });

    await expect(client.auth.login({ email: "a@example.com", password: "nope" })).rejects.toMatchObject({
      code: "invalid_credentials",
      status: 401,
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers.has("authorization")).toBe(false);
    expect(seen).toEqual([]);
  });

  it("puts path parameters and the query into the URL", async () => {
    const { sent, fetch } = scripted([
      () =>
        new Response(
          JSON.stringify({
            success: true,
            data: [],
            meta: { limit: 10, has_more: false },
            error: null,
            request_id: "r",
          }),
          { headers: { "content-type": "application/json" } },
        ),
    ]);
    const client = createAgoraClient({ baseUrl: "http://api.test", fetch, getAccessToken: () => "t" });

    const page = await client.chat.messages("a/b", { after: 5 });

    expect(page).toEqual({ data: [], meta: { limit: 10, has_more: false } });
    expect(sent[0]?.url).toBe("http://api.test/api/v1/chat/conversations/a%2Fb/messages?after=5");
    expect(sent[0]?.headers.get("authorization")).toBe("Bearer t");
  });
});

// `client.media.upload`: the ticket, the PUT of the bytes to the object store, the confirmation.
describe("the client's upload helper", () => {
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  /** The upload ticket the service answers `media.requestUpload` with. */
  const ticket = (id: string, mimeType: string, size: number) => ({
    id,
    upload_url: `https://store.test/agora-media/uploads/${id}?X-Amz-Signature=f00d`,
    method: "PUT",
    headers: { "Content-Type": mimeType, "Content-Length": String(size) },
    expires_at: "2026-05-01T12:15:00.000Z",
  });
  /** `media.confirm`'s answer: the asset as `media.get` reads it, processing. */
  const processing = (id: string) => ({
    id,
    url: null,
    method: "GET",
    expires_at: null,
    retry_after_seconds: 2,
    mime_type: "image/png",
    size_bytes: PNG.length,
    status: "processing",
    rejected_reason: null,
    width: null,
    height: null,
    blurhash: null,
    variants: [],
  });
  /** The object store's answers: an empty 200, or an S3 XML error. */
  const stored = () => new Response(null, { status: 200 });
  const refusedBy = (status: number, code: string) => () =>
    new Response(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code></Error>`, {
      status,
      headers: { "content-type": "application/xml" },
    });
  const busy = () => envelope(503, null, { code: "service_unavailable", message: "busy" });

  const clientWith = (fetch: typeof globalThis.fetch, extra: { retries?: number } = {}) =>
    createAgoraClient({
      baseUrl: "http://api.test",
      fetch,
      getAccessToken: () => "t",
      retryDelayMs: 1,
      validateResponses: true,
      ...extra,
    });
  const bytesOf = async (body: RequestInit["body"]) => [
    ...new Uint8Array(await new Response(body).arrayBuffer()),
  ];
  const calls = (sent: Sent[]) => sent.map((request) => `${request.method} ${request.url}`);

  it("asks for a ticket, PUTs exactly the signed headers and the bytes to the store, confirms, and resolves to the id", async () => {
    const { sent, fetch } = scripted([
      () => envelope(201, ticket("a-1", "image/png", PNG.length)),
      stored,
      () => envelope(200, processing("a-1")),
    ]);

    await expect(
      clientWith(fetch).media.upload(PNG, { purpose: "moment", mimeType: "image/png" }),
    ).resolves.toBe("a-1");

    expect(calls(sent)).toEqual([
      "POST http://api.test/api/v1/media/upload",
      "PUT https://store.test/agora-media/uploads/a-1?X-Amz-Signature=f00d",
      "POST http://api.test/api/v1/media/a-1/confirm",
    ]);
    const [requested, put, confirmed] = sent;
    // The explicit type of bytes that have none, and their length.
    expect(JSON.parse(requested?.body ?? "null")).toEqual({
      purpose: "moment",
      mime_type: "image/png",
      size_bytes: PNG.length,
    });
    expect(requested?.headers.get("authorization")).toBe("Bearer t");
    expect(requested?.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
    // The store gets the ticket's headers and nothing else: no token, no key, no JSON type.
    expect([...(put?.headers.entries() ?? [])]).toEqual([
      ["content-length", String(PNG.length)],
      ["content-type", "image/png"],
    ]);
    expect(put?.raw).toBe(PNG);
    expect(await bytesOf(put?.raw)).toEqual([...PNG]);
    expect(confirmed?.headers.get("authorization")).toBe("Bearer t");
    expect(confirmed?.body).toBeUndefined();
  });

  it("takes a Blob's own type and size, and sends the Blob itself", async () => {
    const file = new Blob([PNG, PNG], { type: "image/webp" });
    const { sent, fetch } = scripted([
      () => envelope(201, ticket("a-2", "image/webp", file.size)),
      stored,
      () => envelope(200, { ...processing("a-2"), mime_type: "image/webp", size_bytes: file.size }),
    ]);

    await expect(clientWith(fetch).media.upload(file, { purpose: "listing" })).resolves.toBe("a-2");

    expect(JSON.parse(sent[0]?.body ?? "null")).toEqual({
      purpose: "listing",
      mime_type: "image/webp",
      size_bytes: 2 * PNG.length,
    });
    expect(sent[1]?.raw).toBe(file);
    expect(sent[1]?.headers.get("content-type")).toBe("image/webp");
    expect(await bytesOf(sent[1]?.raw)).toEqual([...PNG, ...PNG]);
  });

  it("measures an ArrayBuffer by its byteLength, and an explicit mimeType wins over a Blob's type", async () => {
    const { sent, fetch } = scripted([
      () => envelope(201, ticket("a-3", "video/mp4", 300)),
      stored,
      () => envelope(200, { ...processing("a-3"), mime_type: "video/mp4", size_bytes: 300 }),
      () => envelope(201, ticket("a-4", "image/jpeg", PNG.length)),
      stored,
      () => envelope(200, { ...processing("a-4"), mime_type: "image/jpeg" }),
    ]);
    const client = clientWith(fetch);

    await client.media.upload(new ArrayBuffer(300), { purpose: "message", mimeType: "video/mp4" });
    await client.media.upload(new Blob([PNG], { type: "image/png" }), {
      purpose: "moment",
      mimeType: "image/jpeg",
    });

    expect(JSON.parse(sent[0]?.body ?? "null")).toMatchObject({ mime_type: "video/mp4", size_bytes: 300 });
    expect(JSON.parse(sent[3]?.body ?? "null")).toMatchObject({
      mime_type: "image/jpeg",
      size_bytes: PNG.length,
    });
    expect(sent[4]?.headers.get("content-type")).toBe("image/jpeg");
  });

  it("throws a TypeError, and sends nothing, for bytes without a type", async () => {
    const { sent, fetch } = scripted([]);
    const client = clientWith(fetch);

    await expect(client.media.upload(PNG, { purpose: "moment" })).rejects.toThrow(TypeError);
    await expect(client.media.upload(PNG.buffer, { purpose: "moment" })).rejects.toThrow(TypeError);
    // A Blob made without a type has `type` "".
    await expect(client.media.upload(new Blob([PNG]), { purpose: "moment" })).rejects.toThrow(
      /options\.mimeType/,
    );
    expect(sent).toEqual([]);
  });

  it("retries the PUT after a network error and a 503 from the store, with the same headers and bytes", async () => {
    const { sent, fetch } = scripted([
      () => envelope(201, ticket("a-5", "image/png", PNG.length)),
      () => Promise.reject(new TypeError("fetch failed")),
      refusedBy(503, "SlowDown"),
      stored,
      () => envelope(200, processing("a-5")),
    ]);

    await expect(
      clientWith(fetch).media.upload(PNG, { purpose: "moment", mimeType: "image/png" }),
    ).resolves.toBe("a-5");

    const puts = sent.filter((request) => request.method === "PUT");
    expect(puts).toHaveLength(3);
    for (const put of puts) {
      expect(put.url).toBe("https://store.test/agora-media/uploads/a-5?X-Amz-Signature=f00d");
      expect([...put.headers.entries()]).toEqual([
        ["content-length", String(PNG.length)],
        ["content-type", "image/png"],
      ]);
      expect(await bytesOf(put.raw)).toEqual([...PNG]);
    }
    expect(calls(sent).at(-1)).toBe("POST http://api.test/api/v1/media/a-5/confirm");
  });

  it("waits the store's Retry-After before retrying the PUT", async () => {
    const { sent, fetch } = scripted([
      () => envelope(201, ticket("a-6", "image/png", PNG.length)),
      () => new Response(null, { status: 429, headers: { "retry-after": "1" } }),
      stored,
      () => envelope(200, processing("a-6")),
    ]);
    const started = Date.now();

    await clientWith(fetch).media.upload(PNG, { purpose: "moment", mimeType: "image/png" });

    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(sent.map((request) => request.method)).toEqual(["POST", "PUT", "PUT", "POST"]);
  });

  it("rejects with upload_failed and the store's status when the store refuses, and never confirms", async () => {
    const { sent, fetch } = scripted([
      () => envelope(201, ticket("a-7", "image/png", PNG.length)),
      refusedBy(403, "SignatureDoesNotMatch"),
    ]);

    const error = await clientWith(fetch)
      .media.upload(PNG, { purpose: "moment", mimeType: "image/png" })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(AgoraError);
    expect(error).toMatchObject({ code: "upload_failed", status: 403 });
    // A 403 is final: sent once, and nothing is confirmed.
    expect(calls(sent)).toEqual([
      "POST http://api.test/api/v1/media/upload",
      "PUT https://store.test/agora-media/uploads/a-7?X-Amz-Signature=f00d",
    ]);
  });

  it("rejects with upload_failed and the last status when the store stays unavailable", async () => {
    const { sent, fetch } = scripted([
      () => envelope(201, ticket("a-8", "image/png", PNG.length)),
      refusedBy(503, "SlowDown"),
      refusedBy(503, "SlowDown"),
      refusedBy(502, "BadGateway"),
    ]);

    await expect(
      clientWith(fetch).media.upload(PNG, { purpose: "moment", mimeType: "image/png" }),
    ).rejects.toMatchObject({ code: "upload_failed", status: 502 });
    expect(sent.map((request) => request.method)).toEqual(["POST", "PUT", "PUT", "PUT"]);
  });

  it("retries the confirmation after a 503 (repeatable, though a write without a key)", async () => {
    const { sent, fetch } = scripted([
      () => envelope(201, ticket("a-9", "image/png", PNG.length)),
      stored,
      busy,
      () => envelope(200, processing("a-9")),
    ]);

    await expect(
      clientWith(fetch).media.upload(PNG, { purpose: "moment", mimeType: "image/png" }),
    ).resolves.toBe("a-9");

    expect(calls(sent)).toEqual([
      "POST http://api.test/api/v1/media/upload",
      "PUT https://store.test/agora-media/uploads/a-9?X-Amz-Signature=f00d",
      "POST http://api.test/api/v1/media/a-9/confirm",
      "POST http://api.test/api/v1/media/a-9/confirm",
    ]);
    expect(sent.slice(2).every((request) => !request.headers.has("idempotency-key"))).toBe(true);
  });

  it("retries the ticket request with its Idempotency-Key, and media.confirm alone retries too", async () => {
    const { sent, fetch } = scripted([
      busy,
      () => envelope(201, ticket("a-10", "image/png", PNG.length)),
      stored,
      () => envelope(200, processing("a-10")),
      busy,
      () => envelope(200, processing("a-10")),
    ]);
    const client = clientWith(fetch);

    await client.media.upload(PNG, { purpose: "moment", mimeType: "image/png" });
    const keys = sent.slice(0, 2).map((request) => request.headers.get("idempotency-key"));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);

    await expect(client.media.confirm("a-10")).resolves.toMatchObject({ id: "a-10", status: "processing" });
    expect(sent).toHaveLength(6);
  });

  it("sends each step once with retries: 0", async () => {
    const { sent, fetch } = scripted([
      busy,
      () => envelope(201, ticket("a-11", "image/png", PNG.length)),
      refusedBy(503, "SlowDown"),
      () => envelope(201, ticket("a-12", "image/png", PNG.length)),
      stored,
      busy,
    ]);
    const client = clientWith(fetch, { retries: 0 });
    const upload = () => client.media.upload(PNG, { purpose: "moment", mimeType: "image/png" });

    await expect(upload()).rejects.toMatchObject({ code: "service_unavailable", status: 503 });
    expect(sent).toHaveLength(1);
    await expect(upload()).rejects.toMatchObject({ code: "upload_failed", status: 503 });
    expect(sent).toHaveLength(3);
    await expect(upload()).rejects.toMatchObject({ code: "service_unavailable", status: 503 });
    expect(calls(sent).slice(3)).toEqual([
      "POST http://api.test/api/v1/media/upload",
      "PUT https://store.test/agora-media/uploads/a-12?X-Amz-Signature=f00d",
      "POST http://api.test/api/v1/media/a-12/confirm",
    ]);
  });

  it("stops at once when the signal is aborted, without retrying the PUT", async () => {
    const controller = new AbortController();
    const { sent, fetch } = scripted([
      () => envelope(201, ticket("a-13", "image/png", PNG.length)),
      () => {
        controller.abort();

        return Promise.reject(new DOMException("This operation was aborted", "AbortError"));
      },
    ]);

    await expect(
      clientWith(fetch).media.upload(PNG, {
        purpose: "moment",
        mimeType: "image/png",
        signal: controller.signal,
      }),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(sent.map((request) => request.method)).toEqual(["POST", "PUT"]);
  });
});
