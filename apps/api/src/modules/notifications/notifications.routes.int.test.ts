import { createHmac } from "node:crypto";
import { createMemoryPush, type MemoryPush } from "@agora/adapters/push/memory-push";
import type { DeviceDto, NotificationDto } from "@agora/contracts/notifications";
import { deriveKey, KEY_PURPOSES } from "@agora/domain/common/derived-keys";
import { notificationId } from "@agora/domain/notifications/notify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type ErrorBody = { error: { code: string; details?: { path: string }[] } };
type DeviceBody = { data: DeviceDto };

describe("notifications and devices", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  /** Puts a notification for each of `userIds` in their inboxes, one second after the previous one. */
  const notify = async (userIds: string[], title: string) => {
    h.clock.advance(1_000);
    const eventId = h.runtime.ids.next();
    await h.runtime.notifications.notifications.addMany(
      userIds.map((userId) => ({
        id: notificationId(eventId, userId),
        userId,
        eventId,
        kind: "test.notified",
        title,
        body: `${title} body`,
        data: { ref: title },
        createdAt: h.clock.now(),
      })),
    );
  };
  const devicesOf = async (userId: string) =>
    (
      await h.db.sql.query<{ token: string; platform: string }>(
        "SELECT token, platform FROM devices WHERE user_id = $1 ORDER BY token",
        [userId],
      )
    ).rows;

  describe("POST /api/v1/devices", () => {
    it("registers the caller's device and answers 201 with it", async () => {
      const s = await h.signIn();
      const res = await h.post<DeviceBody>(
        "/api/v1/devices",
        { token: "fcm-token-a", platform: "android", user_id: "ignored" },
        { token: s.accessToken },
      );
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        token: "fcm-token-a",
        platform: "android",
        created_at: h.clock.now().toISOString(),
      });
      expect(await devicesOf(s.user.id)).toEqual([{ token: "fcm-token-a", platform: "android" }]);
    });

    it("upserts per token: registering it again keeps one device and takes the new platform", async () => {
      const s = await h.signIn();
      const first = await h.post<DeviceBody>(
        "/api/v1/devices",
        { token: "fcm-token-b", platform: "ios" },
        { token: s.accessToken },
      );
      h.clock.advance(60_000);
      const again = await h.post<DeviceBody>(
        "/api/v1/devices",
        { token: "fcm-token-b", platform: "web" },
        { token: s.accessToken },
      );
      expect(again.status).toBe(201);
      expect(again.body.data.id).toBe(first.body.data.id);
      expect(again.body.data.platform).toBe("web");
      expect(await devicesOf(s.user.id)).toEqual([{ token: "fcm-token-b", platform: "web" }]);
    });

    it("moves a token to the caller at once when the session that registered it has signed out", async () => {
      const before = await h.signIn();
      const after = await h.signIn();
      await h.post(
        "/api/v1/devices",
        { token: "shared-phone", platform: "ios" },
        { token: before.accessToken },
      );
      expect((await h.post("/api/v1/auth/logout", { refresh_token: before.refreshToken })).status).toBe(200);
      const res = await h.post<DeviceBody>(
        "/api/v1/devices",
        { token: "shared-phone", platform: "ios" },
        { token: after.accessToken },
      );
      expect(res.status).toBe(201);
      expect(await devicesOf(before.user.id)).toEqual([]);
      expect(await devicesOf(after.user.id)).toEqual([{ token: "shared-phone", platform: "ios" }]);
    });

    it("keeps a token held by another user's live session (202 proof_sent; push is off, so no proof)", async () => {
      const owner = await h.signIn();
      const intruder = await h.signIn();
      await h.post(
        "/api/v1/devices",
        { token: "owners-phone", platform: "android" },
        { token: owner.accessToken },
      );
      const res = await h.post<{ data: { status: string } }>(
        "/api/v1/devices",
        { token: "owners-phone", platform: "android" },
        { token: intruder.accessToken },
      );
      expect(res.status).toBe(202);
      expect(res.body.data).toEqual({ status: "proof_sent" });
      expect(await devicesOf(owner.user.id)).toEqual([{ token: "owners-phone", platform: "android" }]);
      expect(await devicesOf(intruder.user.id)).toEqual([]);
    });

    it("keeps at most 10 registrations per user, evicting the least recently registered", async () => {
      const s = await h.signIn();
      for (let i = 0; i < 12; i += 1) {
        h.clock.advance(1000);
        const token = `cap-${String(i).padStart(2, "0")}`;
        expect(
          (await h.post("/api/v1/devices", { token, platform: "web" }, { token: s.accessToken })).status,
        ).toBe(201);
        if (i === 5) {
          // Registering an old token again makes it recent.
          h.clock.advance(1000);
          await h.post("/api/v1/devices", { token: "cap-00", platform: "web" }, { token: s.accessToken });
        }
      }
      const tokens = (await devicesOf(s.user.id)).map((device) => device.token);
      expect(tokens).toHaveLength(10);
      expect(tokens).toContain("cap-00");
      expect(tokens).not.toContain("cap-01");
      expect(tokens).not.toContain("cap-02");
    });

    it("answers 401 without a token and registers nothing", async () => {
      const res = await h.post<ErrorBody>("/api/v1/devices", { token: "anonymous", platform: "ios" });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
      const { rows } = await h.db.sql.query("SELECT 1 FROM devices WHERE token = 'anonymous'");
      expect(rows).toHaveLength(0);
    });

    it.each([
      [{ platform: "ios" }, "token"],
      [{ token: "", platform: "ios" }, "token"],
      [{ token: "x".repeat(4097), platform: "ios" }, "token"],
      [{ token: "ok-token", platform: "windows" }, "platform"],
      [{ token: "ok-token" }, "platform"],
    ])("answers 422 validation_failed for %j, naming the field", async (body, path) => {
      const s = await h.signIn();
      const res = await h.post<ErrorBody>("/api/v1/devices", body, { token: s.accessToken });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe("validation_failed");
      expect(res.body.error.details?.map((detail) => detail.path)).toContain(path);
      expect(await devicesOf(s.user.id)).toEqual([]);
    });

    it("accepts a token of exactly 4096 characters", async () => {
      const s = await h.signIn();
      const res = await h.post(
        "/api/v1/devices",
        { token: "t".repeat(4096), platform: "web" },
        { token: s.accessToken },
      );
      expect(res.status).toBe(201);
    });
  });

  describe("GET /api/v1/notifications", () => {
    let reader: SignedIn;
    let other: SignedIn;

    beforeAll(async () => {
      reader = await h.signIn();
      other = await h.signIn();
      for (let index = 1; index <= 55; index += 1) {
        await notify([reader.user.id], `n${index}`);
      }
      await notify([other.user.id], "someone else's");
    });

    it("lists the caller's newest 50, newest first, in the contract's shape", async () => {
      const res = await h.get<{ data: NotificationDto[]; meta: Record<string, unknown> }>(
        "/api/v1/notifications",
        {
          token: reader.accessToken,
        },
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(50);
      expect(res.body.data.map((n) => n.title)).toEqual(
        Array.from({ length: 50 }, (_, index) => `n${55 - index}`),
      );
      expect(res.body.data[0]).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        kind: "test.notified",
        title: "n55",
        body: "n55 body",
        data: { ref: "n55" },
        read_at: null,
        created_at: expect.any(String),
        unread_count: 1,
      });
      const times = res.body.data.map((n) => Date.parse(n.created_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      expect(res.body.meta).toEqual({
        limit: 50,
        next_before: expect.stringMatching(/^\d+_[0-9a-f-]{36}$/),
        unread_count: 55,
      });
    });

    it("shows only the caller's own notifications", async () => {
      const res = await h.get<{ data: NotificationDto[] }>("/api/v1/notifications", {
        token: other.accessToken,
      });
      expect(res.body.data.map((n) => n.title)).toEqual(["someone else's"]);
      const stranger = await h.signIn();
      const empty = await h.get<{ data: NotificationDto[] }>("/api/v1/notifications", {
        token: stranger.accessToken,
      });
      expect(empty.status).toBe(200);
      expect(empty.body.data).toEqual([]);
    });

    it("answers 401 without a token", async () => {
      const res = await h.get<ErrorBody>("/api/v1/notifications");
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
    });
  });

  describe("POST /api/v1/notifications/{id}/read", () => {
    const newest = async (s: SignedIn) =>
      (await h.get<{ data: NotificationDto[] }>("/api/v1/notifications", { token: s.accessToken })).body
        .data[0] as NotificationDto;

    it("marks the caller's notification read, and a second read keeps the first read_at", async () => {
      const s = await h.signIn();
      await notify([s.user.id], "to read");
      const notification = await newest(s);

      const first = await h.post<{ data: NotificationDto }>(
        `/api/v1/notifications/${notification.id}/read`,
        undefined,
        { token: s.accessToken },
      );
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({
        ...notification,
        read_at: h.clock.now().toISOString(),
        unread_count: 0,
      });

      h.clock.advance(60_000);
      const second = await h.post<{ data: NotificationDto }>(
        `/api/v1/notifications/${notification.id}/read`,
        undefined,
        { token: s.accessToken },
      );
      expect(second.status).toBe(200);
      expect(second.body.data.read_at).toBe(first.body.data.read_at);
      expect((await newest(s)).read_at).toBe(first.body.data.read_at);
    });

    it("answers 404 for another user's notification and leaves it unread", async () => {
      const owner = await h.signIn();
      const intruder = await h.signIn();
      await notify([owner.user.id], "private");
      const notification = await newest(owner);

      const res = await h.post<ErrorBody>(`/api/v1/notifications/${notification.id}/read`, undefined, {
        token: intruder.accessToken,
      });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
      expect((await newest(owner)).read_at).toBeNull();
    });

    it("answers 404 for an unknown or malformed id and 401 without a token", async () => {
      const s = await h.signIn();
      for (const id of [h.runtime.ids.next(), "not-a-uuid"]) {
        const res = await h.post<ErrorBody>(`/api/v1/notifications/${id}/read`, undefined, {
          token: s.accessToken,
        });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe("not_found");
      }
      const anonymous = await h.post<ErrorBody>(`/api/v1/notifications/${h.runtime.ids.next()}/read`);
      expect(anonymous.status).toBe(401);
    });
  });

  it("documents the three routes in the OpenAPI document, each with bearer auth", async () => {
    const res = await h.get<{
      paths: Record<string, Record<string, { security?: unknown[]; responses: object }>>;
    }>("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    const { paths } = res.body;
    const operations = [
      paths["/api/v1/devices"]?.post,
      paths["/api/v1/notifications"]?.get,
      paths["/api/v1/notifications/{id}/read"]?.post,
    ];
    for (const operation of operations) {
      expect(operation?.security).toEqual([{ bearerAuth: [] }]);
      expect(Object.keys(operation?.responses ?? {})).toContain("401");
    }
    expect(Object.keys(operations[0]?.responses ?? {})).toEqual(expect.arrayContaining(["201", "422"]));
    expect(Object.keys(operations[2]?.responses ?? {})).toEqual(expect.arrayContaining(["200", "404"]));
  });
});

describe("device tokens held by another account, with push on", () => {
  let h: Harness;
  let push: MemoryPush;

  beforeAll(async () => {
    push = createMemoryPush();
    h = await createHarness({ seed: false, push });
  });
  afterAll(async () => {
    await h?.close();
  });

  const register = (session: SignedIn, body: Record<string, unknown>) =>
    h.post<{ data: Record<string, unknown> } & ErrorBody>("/api/v1/devices", body, {
      token: session.accessToken,
    });

  it("moves a held token only with the proof pushed to that token", async () => {
    const owner = await h.signIn();
    const newcomer = await h.signIn();
    expect((await register(owner, { token: "phone-1", platform: "ios" })).status).toBe(201);

    const first = await register(newcomer, { token: "phone-1", platform: "ios" });
    expect(first.status).toBe(202);
    const challenge = push.sentTo("phone-1").at(-1);
    expect(challenge?.tokens).toEqual(["phone-1"]);
    expect(challenge?.message.title).toBeUndefined();
    expect(challenge?.message.data.kind).toBe("device.proof");
    const proof = challenge?.message.data.proof ?? "";
    expect(proof).toMatch(/^[A-Za-z0-9_-]{32}$/);

    // The proof is bound to the user and the token: no use to anyone else or for another token.
    const stranger = await h.signIn();
    const stolen = await register(stranger, { token: "phone-1", platform: "ios", proof });
    expect(stolen.status).toBe(422);
    expect(stolen.body.error.details?.map((detail) => detail.path)).toEqual(["proof"]);
    expect((await register(newcomer, { token: "phone-2", platform: "ios", proof })).status).toBe(422);

    const moved = await register(newcomer, { token: "phone-1", platform: "ios", proof });
    expect(moved.status).toBe(201);
    const owners = await h.db.sql.query("SELECT 1 FROM devices WHERE user_id = $1", [owner.user.id]);
    expect(owners.rows).toHaveLength(0);
  });

  it("refuses a proof older than 20 minutes", async () => {
    const owner = await h.signIn();
    const newcomer = await h.signIn();
    await register(owner, { token: "phone-3", platform: "android" });
    await register(newcomer, { token: "phone-3", platform: "android" });
    const proof = push.sentTo("phone-3").at(-1)?.message.data.proof ?? "";
    h.clock.advance(21 * 60_000);
    // A fresh access token (the first expired meanwhile), same user.
    const later = await h.openSession(newcomer.user);
    expect((await register(later, { token: "phone-3", platform: "android", proof })).status).toBe(422);
  });

  describe('the key of the proofs (docs/accounts.md, "Keys from TOKEN_SECRET")', () => {
    /** A proof under a key, as the service makes them: an HMAC of user, 10-minute window and token. */
    const proofUnder = (key: Buffer | string, userId: string, token: string) =>
      createHmac("sha256", key)
        .update(`${userId.toLowerCase()}:${Math.floor(h.clock.now().getTime() / 600_000)}:${token}`)
        .digest("base64url")
        .slice(0, 32);
    /** The key proofs were made under before the derived key (one pushed before the deploy). */
    const legacyKey = () => `${h.config.tokenSecret}:device-proofs`;

    it("pushes proofs under the derived key, not the legacy one", async () => {
      const owner = await h.signIn();
      const newcomer = await h.signIn();
      await register(owner, { token: "phone-4", platform: "ios" });
      expect((await register(newcomer, { token: "phone-4", platform: "ios" })).status).toBe(202);
      const proof = push.sentTo("phone-4").at(-1)?.message.data.proof;

      const derived = deriveKey(h.config.tokenSecret, KEY_PURPOSES.deviceProofs);
      expect(proof).toBe(proofUnder(derived, newcomer.user.id, "phone-4"));
      expect(proof).not.toBe(proofUnder(legacyKey(), newcomer.user.id, "phone-4"));
    });

    it("still moves a held token with a proof made under the legacy key (the transition); another key's is 422", async () => {
      const owner = await h.signIn();
      const newcomer = await h.signIn();
      await register(owner, { token: "phone-5", platform: "android" });
      const raw = proofUnder(h.config.tokenSecret, newcomer.user.id, "phone-5");
      expect((await register(newcomer, { token: "phone-5", platform: "android", proof: raw })).status).toBe(
        422,
      );

      const legacy = proofUnder(legacyKey(), newcomer.user.id, "phone-5");
      const moved = await register(newcomer, { token: "phone-5", platform: "android", proof: legacy });
      expect(moved.status).toBe(201);
      const owners = await h.db.sql.query("SELECT 1 FROM devices WHERE user_id = $1", [owner.user.id]);
      expect(owners.rows).toHaveLength(0);
    });
  });

  it("stops pushing a user's notifications to a phone once that session signs out", async () => {
    const s = await h.signIn();
    const other = await h.openSession(s.user);
    await register(s, { token: "signed-out-phone", platform: "ios" });
    await register(other, { token: "still-signed-in", platform: "ios" });
    expect(await h.runtime.notifications.devices.findTokensByUser(s.user.id)).toEqual([
      "signed-out-phone",
      "still-signed-in",
    ]);
    await h.post("/api/v1/auth/logout", { refresh_token: s.refreshToken });
    expect(await h.runtime.notifications.devices.findTokensByUser(s.user.id)).toEqual(["still-signed-in"]);
  });
});
