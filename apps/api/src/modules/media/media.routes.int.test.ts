import { createServer, type Server, type Socket } from "node:net";
import { createHousekeeper } from "@agora/db/repositories/housekeeping.repository";
import { purgeOrphanMedia } from "@agora/domain/common/housekeeping";
import { allObjectKeys, servedKeys } from "@agora/domain/media/media.types";
import { DEFAULT_TIMEOUTS } from "@agora/process/config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import {
  checkPresigned,
  type LocalS3,
  processedMedia,
  startLocalS3,
  TINY_PNG,
  uploadMedia,
} from "../../../test/s3";

type ErrorBody = { error: { code: string; message: string; details?: { path: string; message: string }[] } };
type UploadBody = {
  data: {
    id: string;
    upload_url: string;
    method: string;
    headers: Record<string, string>;
    expires_at: string;
  };
} & ErrorBody;
type ReadBody = {
  data: {
    id: string;
    url: string | null;
    method: string;
    expires_at: string | null;
    retry_after_seconds: number | null;
    mime_type: string;
    size_bytes: number;
    status: string;
  };
} & ErrorBody;

const HOUR = 3600_000;

describe("media through the object store", () => {
  let s3: LocalS3;
  let h: Harness;
  let ada: SignedIn;

  beforeAll(async () => {
    s3 = await startLocalS3();
    h = await createHarness({ seed: true, config: { s3: s3.config } });
    ada = await h.signIn();
  });
  afterAll(async () => {
    await h?.close();
    await s3?.close();
  });

  const asset = async (id: string) =>
    (
      await h.db.sql.query<{
        owner_id: string;
        purpose: string;
        mime_type: string;
        size_bytes: number;
        object_key: string;
        status: string;
        visibility: string;
        attached_at: Date | null;
      }>(
        `SELECT owner_id, purpose, mime_type, size_bytes, object_key, status, visibility, attached_at
           FROM media_assets WHERE id = $1`,
        [id],
      )
    ).rows[0];
  const read = (id: string, who: SignedIn = ada) =>
    h.get<ReadBody>(`/api/v1/media/${id}`, { token: who.accessToken });
  const confirm = (id: string, who: SignedIn = ada) =>
    h.post<ReadBody>(`/api/v1/media/${id}/confirm`, undefined, { token: who.accessToken });

  describe("POST /media/upload", () => {
    it("registers a private pending asset and answers a 15-minute PUT URL signing its type and length", async () => {
      const res = await h.post<UploadBody>(
        "/api/v1/media/upload",
        { purpose: "moment", mime_type: "image/jpeg", size_bytes: 1234 },
        { token: ada.accessToken },
      );
      expect(res.status).toBe(201);
      const { id, upload_url, method, headers, expires_at } = res.body.data;
      expect(method).toBe("PUT");
      expect(headers).toEqual({ "Content-Type": "image/jpeg", "Content-Length": "1234" });
      expect(Date.parse(expires_at)).toBe(h.clock.now().getTime() + 15 * 60_000);
      const url = new URL(upload_url);
      expect(url.origin).toBe(s3.config.endpoint);
      expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
      expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("content-length;content-type;host");
      // No SDK checksum of an empty body rides along (a real store would check it against the bytes).
      expect([...url.searchParams.keys()].filter((k) => k.toLowerCase().includes("checksum"))).toEqual([]);
      expect(await asset(id)).toEqual({
        owner_id: ada.user.id,
        purpose: "moment",
        mime_type: "image/jpeg",
        size_bytes: 1234,
        object_key: `uploads/${id}`,
        status: "pending",
        visibility: "private",
        attached_at: null,
      });
      expect(url.pathname).toBe(`/${s3.config.bucket}/uploads/${id}`);
      expect(upload_url).not.toContain(ada.user.id);
      expect(upload_url).not.toContain(ada.user.username);
    });

    it("answers 422 for a type, size or purpose outside the lists, and 401 without a token", async () => {
      const cases = [
        { purpose: "moment", mime_type: "image/gif", size_bytes: 10 },
        { purpose: "moment", mime_type: "image/png", size_bytes: 0 },
        { purpose: "moment", mime_type: "image/png", size_bytes: 10_485_761 },
        { purpose: "moment", mime_type: "image/png", size_bytes: 1.5 },
        { purpose: "banner", mime_type: "image/png", size_bytes: 10 },
        { mime_type: "image/png", size_bytes: 10 },
      ];
      for (const body of cases) {
        const res = await h.post<ErrorBody>("/api/v1/media/upload", body, { token: ada.accessToken });
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.error.code).toBe("validation_failed");
      }
      const largest = await h.post<UploadBody>(
        "/api/v1/media/upload",
        { purpose: "payment_evidence", mime_type: "video/mp4", size_bytes: 10_485_760 },
        { token: ada.accessToken },
      );
      expect(largest.status).toBe(201);
      expect(
        (await h.post("/api/v1/media/upload", { purpose: "moment", mime_type: "image/png", size_bytes: 1 }))
          .status,
      ).toBe(401);
    });

    it("answers 422 at mime_type for a video uploaded for a record image, recording nothing; moments and messages take video", async () => {
      const count = async () =>
        Number(
          (
            await h.db.sql.query<{ n: string }>(
              "SELECT count(*) AS n FROM media_assets WHERE owner_id = $1",
              [ada.user.id],
            )
          ).rows[0]?.n,
        );
      const before = await count();
      for (const purpose of ["listing", "menu_item", "provider_logo", "dating_photo", "avatar"]) {
        const res = await h.post<ErrorBody>(
          "/api/v1/media/upload",
          { purpose, mime_type: "video/mp4", size_bytes: 1000 },
          { token: ada.accessToken },
        );
        expect(res.status, purpose).toBe(422);
        expect(res.body.error.code).toBe("validation_failed");
        expect(res.body.error.details).toEqual([
          { path: "mime_type", message: expect.stringMatching(/image/) },
        ]);
      }
      expect(await count()).toBe(before);
      for (const [purpose, mime_type] of [
        ["listing", "image/webp"],
        ["avatar", "image/jpeg"],
        ["moment", "video/mp4"],
        ["message", "video/mp4"],
      ]) {
        const res = await h.post(
          "/api/v1/media/upload",
          { purpose, mime_type, size_bytes: 1000 },
          {
            token: ada.accessToken,
          },
        );
        expect(res.status, `${purpose} ${mime_type}`).toBe(201);
      }
      expect(await count()).toBe(before + 4);
    });
  });

  describe("the presigned URLs against the store", () => {
    it("stores the bytes sent with the returned headers; a confirmation queues them, and the owner's read URL serves their processed copy", async () => {
      const upload = await uploadMedia(h, ada.accessToken, { bytes: TINY_PNG });
      expect(upload.storeStatus).toBe(200);
      expect(await s3.has(`uploads/${upload.id}`)).toBe(true);
      expect((await asset(upload.id))?.status).toBe("pending");

      // A read tells the state and confirms nothing: still pending, no URL.
      const before = await read(upload.id);
      expect(before.status).toBe(200);
      expect(before.headers.get("retry-after")).toBeNull();
      expect(before.body.data).toMatchObject({
        status: "pending",
        url: null,
        expires_at: null,
        retry_after_seconds: null,
      });
      expect((await asset(upload.id))?.status).toBe("pending");

      const confirmed = await confirm(upload.id);
      expect(confirmed.status).toBe(200);
      expect(confirmed.headers.get("retry-after")).toBe("2");
      expect(confirmed.body.data).toMatchObject({
        id: upload.id,
        status: "processing",
        url: null,
        retry_after_seconds: 2,
        mime_type: "image/png",
        size_bytes: TINY_PNG.length,
      });
      // Confirmed by HEAD against the store.
      expect((await asset(upload.id))?.status).toBe("uploaded");

      await h.runOutboxOnce();
      const res = await read(upload.id);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: upload.id,
        method: "GET",
        status: "ready",
        retry_after_seconds: null,
      });
      expect(Date.parse(res.body.data.expires_at ?? "")).toBe(h.clock.now().getTime() + 5 * 60_000);
      const url = res.body.data.url ?? "";
      expect(new URL(url).searchParams.get("X-Amz-Expires")).toBe("300");
      expect(new URL(url).pathname).toBe(`/agora-media/${servedKeys(upload.id).full}`);
      const fetched = await fetch(url);
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get("content-type")).toBe("image/png");
      expect([...Buffer.from(await fetched.arrayBuffer()).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    });

    it("refuses a PUT with another content type or another length (403 from the store), and stores nothing", async () => {
      const { id, ticket } = await uploadMedia(h, ada.accessToken, {
        put: false,
        bytes: Buffer.alloc(64, 1),
      });
      const otherType = await fetch(ticket.upload_url, {
        method: "PUT",
        headers: { ...ticket.headers, "Content-Type": "image/jpeg" },
        body: Buffer.alloc(64, 1),
      });
      expect(otherType.status).toBe(403);
      expect(await otherType.text()).toContain("SignatureDoesNotMatch");
      const otherLength = await fetch(ticket.upload_url, {
        method: "PUT",
        headers: { "Content-Type": ticket.headers["Content-Type"] ?? "" },
        body: Buffer.alloc(65, 1),
      });
      expect(otherLength.status).toBe(403);
      expect(await s3.has(`uploads/${id}`)).toBe(false);
      expect(s3.refused.filter((r) => r.path.endsWith(id)).map((r) => r.reason)).toEqual([
        "signature_mismatch",
        "signature_mismatch",
      ]);
    });

    it("signs what the API promised: the URL's signature holds for the declared type and length only, for 15 minutes", async () => {
      // s3rver itself does not check Signature V4; this checks the signature as S3 does, directly.
      const { ticket } = await uploadMedia(h, ada.accessToken, { put: false, bytes: Buffer.alloc(100) });
      const url = new URL(ticket.upload_url);
      const signed = { host: url.host, "content-type": "image/png", "content-length": "100" };
      expect(checkPresigned("PUT", url, signed)).toBe("valid");
      expect(checkPresigned("PUT", url, { ...signed, "content-type": "image/webp" })).toBe(
        "signature_mismatch",
      );
      expect(checkPresigned("PUT", url, { ...signed, "content-length": "101" })).toBe("signature_mismatch");
      expect(checkPresigned("PUT", url, signed, undefined, "another-secret")).toBe("signature_mismatch");
      expect(checkPresigned("GET", url, signed)).toBe("signature_mismatch");
      const later = new Date(h.clock.now().getTime() + 15 * 60_000 + 1000);
      expect(checkPresigned("PUT", url, signed, later)).toBe("expired");
    });
  });

  describe("GET /media/{id}", () => {
    it("answers 404 for an unknown or malformed id, 403 for another user's private asset, 401 without a token", async () => {
      for (const id of [h.runtime.ids.next(), "not-an-id"]) {
        const res = await read(id);
        expect(res.status, id).toBe(404);
        expect(res.body.error.code).toBe("not_found");
      }
      const { id } = await uploadMedia(h, ada.accessToken);
      const bob = await h.signIn();
      const res = await read(id, bob);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
      expect((await h.get(`/api/v1/media/${id}`)).status).toBe(401);
    });

    it("confirms only the owner's upload, and only once its object is in the store as declared (422 otherwise)", async () => {
      const pending = await uploadMedia(h, ada.accessToken, { put: false });
      const res = await confirm(pending.id);
      expect(res.status).toBe(422);
      expect(res.body.error.details?.[0]).toMatchObject({ path: "id" });
      expect((await asset(pending.id))?.status).toBe("pending");

      // A store that took other bytes than those declared (nothing signed them): still refused.
      const wrong = await uploadMedia(h, ada.accessToken, { put: false, bytes: Buffer.alloc(10) });
      await s3.putUnsigned(`uploads/${wrong.id}`, Buffer.alloc(11), "image/png");
      expect((await confirm(wrong.id)).status).toBe(422);
      await s3.putUnsigned(`uploads/${wrong.id}`, Buffer.alloc(10), "image/jpeg");
      expect((await confirm(wrong.id)).status).toBe(422);
      // A read meanwhile answers the state without asking the store.
      expect((await read(wrong.id)).body.data).toMatchObject({ status: "pending", url: null });
      await s3.putUnsigned(`uploads/${wrong.id}`, Buffer.alloc(10), "image/png");
      const bob = await h.signIn();
      const foreign = await confirm(wrong.id, bob);
      expect(foreign.status).toBe(403);
      expect(foreign.body.error.code).toBe("forbidden");
      expect((await asset(wrong.id))?.status).toBe("pending");
      expect((await confirm(wrong.id)).status).toBe(200);
      expect((await asset(wrong.id))?.status).toBe("uploaded");
      expect((await confirm(h.runtime.ids.next())).status).toBe(404);
      expect((await h.post(`/api/v1/media/${wrong.id}/confirm`)).status).toBe(401);
    });

    it("lets any signed-in user read an asset of a visible public moment, but not across a block or once hidden", async () => {
      const author = await h.signIn();
      const { id } = await processedMedia(h, author.accessToken);
      const bob = await h.signIn();
      expect((await read(id, bob)).status).toBe(403);
      const moment = await h.post<{ data: { id: string } }>(
        "/api/v1/community/moments",
        { body: "sunset", visibility: "public", media_asset_ids: [id] },
        { token: author.accessToken },
      );
      expect(moment.status).toBe(201);
      expect(await asset(id)).toMatchObject({ visibility: "public", status: "uploaded" });
      expect((await read(id, bob)).status).toBe(200);

      const blocked = await h.signIn();
      await h.post(`/api/v1/community/users/${blocked.user.id}/block`, undefined, {
        token: author.accessToken,
      });
      expect((await read(id, blocked)).status).toBe(403);
      const blocker = await h.signIn();
      await h.post(`/api/v1/community/users/${author.user.id}/block`, undefined, {
        token: blocker.accessToken,
      });
      expect((await read(id, blocker)).status).toBe(403);

      await h.db.sql.query("UPDATE moments SET hidden_at = $2 WHERE id = $1", [
        moment.body.data.id,
        h.clock.now(),
      ]);
      expect((await read(id, bob)).status).toBe(403);
      expect((await read(id, author)).status).toBe(200);
    });

    it("lets the payment's reviewers read its evidence: the provider owner and administrators, nobody else", async () => {
      const shop = await h.orderable();
      const order = await h.post<{ data: { id: string } }>(
        "/api/v1/orders",
        { menu_item_id: shop.itemId, quantity: 1 },
        { token: ada.accessToken },
      );
      const payment = await h.post<{ data: { id: string } }>(
        `/api/v1/orders/${order.body.data.id}/payments`,
        { method: "walletone_qr" },
        { token: ada.accessToken, headers: { "idempotency-key": `evidence-${order.body.data.id}` } },
      );
      const { id } = await processedMedia(h, ada.accessToken, { purpose: "payment_evidence" });
      const admin = await h.signIn({ role: "admin" });
      const stranger = await h.signIn();
      expect((await read(id, shop.seller)).status).toBe(403);
      expect((await read(id, admin)).status).toBe(403);

      const evidence = await h.post(
        `/api/v1/payments/${payment.body.data.id}/evidence`,
        { media_asset_id: id },
        { token: ada.accessToken },
      );
      expect(evidence.status).toBe(200);
      expect(await asset(id)).toMatchObject({ status: "uploaded", visibility: "private" });
      expect((await asset(id))?.attached_at).not.toBeNull();
      expect((await read(id, shop.seller)).status).toBe(200);
      expect((await read(id, admin)).status).toBe(200);
      expect((await read(id, stranger)).status).toBe(403);
      expect((await read(id)).status).toBe(200);
      // Sending the same asset again is a no-op, not "already attached".
      expect(
        (
          await h.post(
            `/api/v1/payments/${payment.body.data.id}/evidence`,
            { media_asset_id: id, note: "ref 42" },
            { token: ada.accessToken },
          )
        ).status,
      ).toBe(200);
    });
  });

  describe("payment evidence checks the asset", () => {
    it("answers 422 for an asset that is not the payer's, of another purpose, not uploaded, or already used", async () => {
      const shop = await h.orderable();
      const payFor = async (who: SignedIn) => {
        const order = await h.post<{ data: { id: string } }>(
          "/api/v1/orders",
          { menu_item_id: shop.itemId, quantity: 1 },
          { token: who.accessToken },
        );
        const payment = await h.post<{ data: { id: string } }>(
          `/api/v1/orders/${order.body.data.id}/payments`,
          { method: "walletone_qr" },
          { token: who.accessToken, headers: { "idempotency-key": `p-${order.body.data.id}` } },
        );

        return payment.body.data.id;
      };
      const paymentId = await payFor(ada);
      const bob = await h.signIn();
      const evidence = (mediaAssetId: string) =>
        h.post<ErrorBody>(
          `/api/v1/payments/${paymentId}/evidence`,
          { media_asset_id: mediaAssetId },
          { token: ada.accessToken },
        );

      const cases = [
        h.runtime.ids.next(),
        (await uploadMedia(h, bob.accessToken, { purpose: "payment_evidence" })).id,
        (await uploadMedia(h, ada.accessToken, { purpose: "moment" })).id,
        (await uploadMedia(h, ada.accessToken, { purpose: "payment_evidence", put: false })).id,
      ];
      for (const id of cases) {
        const res = await evidence(id);
        expect(res.status, id).toBe(422);
        expect(res.body.error.details?.[0]?.path).toBe("media_asset_id");
      }
      const used = (await processedMedia(h, ada.accessToken, { purpose: "payment_evidence" })).id;
      expect((await evidence(used)).status).toBe(200);
      const other = await payFor(ada);
      const again = await h.post<ErrorBody>(
        `/api/v1/payments/${other}/evidence`,
        { media_asset_id: used },
        { token: ada.accessToken },
      );
      expect(again.status).toBe(422);
      const { rows } = await h.db.sql.query("SELECT evidence_media_asset_id FROM payments WHERE id = $1", [
        other,
      ]);
      expect(rows[0]).toEqual({ evidence_media_asset_id: null });
    });
  });

  describe("orphans", () => {
    it("deletes, object and row, the assets never attached within 24 hours; attached and recent ones stay", async () => {
      const author = await h.signIn();
      // Processed: its copy and variants are in the store too, and go with it.
      const orphan = await processedMedia(h, author.accessToken);
      const neverUploaded = await uploadMedia(h, author.accessToken, { put: false });
      const kept = await processedMedia(h, author.accessToken);
      await h.post(
        "/api/v1/community/moments",
        { media_asset_ids: [kept.id] },
        { token: author.accessToken },
      );
      h.clock.advance(23 * HOUR);
      const later = await h.openSession(author.user);
      const recent = await uploadMedia(h, later.accessToken);
      h.clock.advance(2 * HOUR);

      const housekeeper = createHousekeeper(h.db.sql, {
        pendingAccountTtlSeconds: h.config.pendingAccountTtlSeconds,
      });
      const counts = await purgeOrphanMedia({ housekeeper, objects: h.runtime.objects.store }, h.clock.now());
      expect(counts.media_assets).toBeGreaterThanOrEqual(2);
      expect(counts.media_objects_failed).toBe(0);
      expect(await s3.has(servedKeys(orphan.id).thumb)).toBe(false);
      for (const gone of [orphan.id, neverUploaded.id]) {
        expect(await asset(gone)).toBeUndefined();
        for (const key of allObjectKeys({ id: gone, objectKey: `uploads/${gone}` })) {
          expect(await s3.has(key)).toBe(false);
        }
      }
      // A processed image is served from its copy (the upload itself is deleted once processed).
      expect(await asset(kept.id)).toBeDefined();
      expect(await s3.has(servedKeys(kept.id).full)).toBe(true);
      expect(await asset(recent.id)).toBeDefined();
      expect(await s3.has(`uploads/${recent.id}`)).toBe(true);
      expect((await read(kept.id, await h.openSession(author.user))).status).toBe(200);
    });

    it("keeps an expired asset out of any record, and its row until the object is gone", async () => {
      const author = await h.signIn();
      const late = await uploadMedia(h, author.accessToken);
      await h.db.sql.query("UPDATE media_assets SET status = 'expired' WHERE id = $1", [late.id]);
      const res = await h.post<ErrorBody>(
        "/api/v1/community/moments",
        { media_asset_ids: [late.id] },
        { token: author.accessToken },
      );
      expect(res.status).toBe(422);
      expect((await read(late.id, author)).status).toBe(404);

      const failing = { delete: () => Promise.reject(new Error("store down")) };
      const housekeeper = createHousekeeper(h.db.sql, {
        pendingAccountTtlSeconds: h.config.pendingAccountTtlSeconds,
      });
      const counts = await purgeOrphanMedia({ housekeeper, objects: failing }, h.clock.now());
      expect(counts.media_objects_failed).toBeGreaterThanOrEqual(1);
      expect(await asset(late.id)).toBeDefined();
      await purgeOrphanMedia({ housekeeper, objects: h.runtime.objects.store }, h.clock.now());
      expect(await asset(late.id)).toBeUndefined();
      expect(await s3.has(`uploads/${late.id}`)).toBe(false);
    });
  });
});

describe("media without an object store, or with one that does not answer", () => {
  let h: Harness;
  let silent: Server;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    // Accepts connections and never answers.
    silent = createServer((socket) => {
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    h = await createHarness({ seed: false });
  });
  afterAll(async () => {
    await h?.close();
    for (const socket of sockets) {
      socket.destroy();
    }
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it("answers 503 storage_unavailable for an upload request and records nothing", async () => {
    const ada = await h.signIn();
    const res = await h.post<ErrorBody>(
      "/api/v1/media/upload",
      { purpose: "moment", mime_type: "image/png", size_bytes: 10 },
      { token: ada.accessToken },
    );
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("storage_unavailable");
    const { rows } = await h.db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM media_assets");
    expect(rows[0]?.n).toBe(0);
  });

  it("answers 503 within S3_TIMEOUT_MS when the store does not answer the upload check", async () => {
    const port = (silent.address() as { port: number }).port;
    const slow = await createHarness({
      seed: false,
      config: {
        s3: {
          endpoint: `http://127.0.0.1:${port}`,
          region: "us-east-1",
          bucket: "b",
          accessKeyId: "k",
          secretAccessKey: "s",
          forcePathStyle: true,
        },
        timeouts: { ...DEFAULT_TIMEOUTS, s3Ms: 300 },
      },
    });
    try {
      const ada = await slow.signIn();
      const upload = await slow.post<UploadBody>(
        "/api/v1/media/upload",
        { purpose: "moment", mime_type: "image/png", size_bytes: 10 },
        { token: ada.accessToken },
      );
      expect(upload.status).toBe(201);
      const started = Date.now();
      const res = await slow.post<ErrorBody>(`/api/v1/media/${upload.body.data.id}/confirm`, undefined, {
        token: ada.accessToken,
      });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("storage_unavailable");
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await slow.close();
    }
  });
});
