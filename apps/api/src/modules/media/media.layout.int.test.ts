import { createHousekeeper } from "@agora/db/repositories/housekeeping.repository";
import { purgeOrphanMedia } from "@agora/domain/common/housekeeping";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import {
  type LocalS3,
  processedMedia,
  startLocalS3,
  TINY_MP4,
  TINY_PNG,
  uploadMedia,
} from "../../../test/s3";

type UploadBody = { data: { id: string; upload_url: string } };
type ReadBody = {
  data: { id: string; url: string | null; status: string; variants: { name: string; url: string }[] };
};

const HOUR = 3600_000;

// The key layout of docs/media.md ("Objects in the bucket"): clients PUT under `uploads/`, which a
// bucket lifecycle rule may expire; everything served is under `media/`, written by the server.
describe("media keys: uploads under uploads/, served copies under media/", () => {
  let s3: LocalS3;
  let h: Harness;
  let ada: SignedIn;

  beforeAll(async () => {
    s3 = await startLocalS3();
    h = await createHarness({ config: { s3: s3.config } });
    ada = await h.signIn();
  });
  afterAll(async () => {
    await h?.close();
    await s3?.close();
  });

  const as = (who: SignedIn) => ({ token: who.accessToken });
  const read = (id: string, who: SignedIn = ada) => h.get<ReadBody>(`/api/v1/media/${id}`, as(who));
  const confirm = (id: string, who: SignedIn = ada) =>
    h.post<ReadBody>(`/api/v1/media/${id}/confirm`, undefined, as(who));
  /** The bucket key a presigned URL points at (none: no URL was handed out). */
  const keyOf = (url: string | null) =>
    url === null ? null : new URL(url).pathname.replace(`/${s3.config.bucket}/`, "");
  const served = (id: string) => [`media/${id}.full`, `media/${id}.thumb.webp`, `media/${id}.display.webp`];

  it("hands out a PUT URL under uploads/ and records that key", async () => {
    const res = await h.post<UploadBody>(
      "/api/v1/media/upload",
      { purpose: "listing", mime_type: "image/png", size_bytes: 10 },
      as(ada),
    );
    expect(res.status).toBe(201);
    const { id, upload_url } = res.body.data;
    expect(keyOf(upload_url)).toBe(`uploads/${id}`);
    const { rows } = await h.db.sql.query<{ object_key: string }>(
      "SELECT object_key FROM media_assets WHERE id = $1",
      [id],
    );
    expect(rows[0]?.object_key).toBe(`uploads/${id}`);
  });

  it("serves a processed image from its copies under media/ and leaves nothing under uploads/", async () => {
    const { id } = await uploadMedia(h, ada.accessToken);
    expect(await s3.has(`uploads/${id}`)).toBe(true);
    // Before processing nobody, its owner included, gets a URL: nothing under uploads/ is served.
    const pending = await confirm(id);
    expect(pending.status).toBe(200);
    expect(pending.body.data).toMatchObject({ status: "processing", url: null, variants: [] });
    await h.runOutboxOnce();

    const ready = await read(id);
    expect(ready.body.data.status).toBe("ready");
    expect([ready.body.data.url, ...ready.body.data.variants.map((v) => v.url)].map(keyOf)).toEqual(
      served(id),
    );
    for (const key of served(id)) {
      expect(await s3.has(key), key).toBe(true);
    }
    expect(await s3.has(`uploads/${id}`)).toBe(false);
    expect(await s3.has(`media/${id}`)).toBe(false);
    expect((await fetch(ready.body.data.url ?? "")).status).toBe(200);
  });

  it("serves a video from its copy media/<id>, its upload deleted; the copy goes with the account", async () => {
    const owner = await h.signIn();
    const { id } = await processedMedia(h, owner.accessToken, { mimeType: "video/mp4", bytes: TINY_MP4 });
    const ready = await read(id, owner);
    expect(ready.body.data.status).toBe("ready");
    expect(keyOf(ready.body.data.url)).toBe(`media/${id}`);
    const fetched = await fetch(ready.body.data.url ?? "");
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("content-type")).toBe("video/mp4");
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(TINY_MP4);
    expect(await s3.has(`uploads/${id}`)).toBe(false);

    expect((await h.delete("/api/v1/auth/me", as(owner))).status).toBe(200);
    await h.runOutboxOnce();
    expect(await s3.has(`media/${id}`)).toBe(false);
  });

  it("rejects a video whose bytes are no MP4 and serves nothing of it under media/", async () => {
    const { id } = await processedMedia(h, ada.accessToken, { mimeType: "video/mp4", bytes: TINY_PNG });
    expect((await read(id)).body.data.status).toBe("rejected");
    expect(await s3.has(`media/${id}`)).toBe(false);
  });

  describe("assets of the old layout (uploaded to media/<id>)", () => {
    /** A row as the server wrote it before uploads/ existed, with its objects in the store. */
    const oldAsset = async (
      owner: SignedIn,
      kind: "image" | "video" | "pending image",
      createdAt = h.clock.now(),
    ) => {
      const id = h.runtime.ids.next();
      const image = {
        width: 1,
        height: 1,
        blurhash: "00TI:j",
        variants: { thumb: { width: 1, height: 1 }, display: { width: 1, height: 1 } },
      };
      const ready = kind !== "pending image";
      await h.db.sql.query(
        `INSERT INTO media_assets (id, owner_id, purpose, mime_type, size_bytes, object_key, status,
                                   visibility, uploaded_at, created_at, processing, image)
         VALUES ($1, $2, 'moment', $3, $4, $5, $6, 'private', $7, $7, $8, $9)`,
        [
          id,
          owner.user.id,
          kind === "video" ? "video/mp4" : "image/png",
          kind === "video" ? TINY_MP4.length : TINY_PNG.length,
          `media/${id}`,
          ready ? "uploaded" : "pending",
          createdAt,
          ready ? "ready" : null,
          kind === "image" ? JSON.stringify(image) : null,
        ],
      );
      if (kind === "image") {
        for (const key of served(id)) {
          await s3.putUnsigned(key, TINY_PNG, "image/png");
        }
      } else {
        await s3.putUnsigned(
          `media/${id}`,
          kind === "video" ? TINY_MP4 : TINY_PNG,
          kind === "video" ? "video/mp4" : "image/png",
        );
      }

      return id;
    };

    it("still serves their images and videos from media/, and deletes every object with the account", async () => {
      const owner = await h.signIn();
      const image = await oldAsset(owner, "image");
      const video = await oldAsset(owner, "video");
      const imageRead = await read(image, owner);
      expect(imageRead.status).toBe(200);
      expect([imageRead.body.data.url, ...imageRead.body.data.variants.map((v) => v.url)].map(keyOf)).toEqual(
        served(image),
      );
      expect((await fetch(imageRead.body.data.url ?? "")).status).toBe(200);
      const videoRead = await read(video, owner);
      expect(keyOf(videoRead.body.data.url)).toBe(`media/${video}`);
      expect((await fetch(videoRead.body.data.url ?? "")).status).toBe(200);

      expect((await h.delete("/api/v1/auth/me", as(owner))).status).toBe(200);
      await h.runOutboxOnce();
      for (const key of [...served(image), `media/${video}`]) {
        expect(await s3.has(key), key).toBe(false);
      }
    });

    it("processes an upload of the old layout in flight: copies under media/, the upload deleted", async () => {
      const owner = await h.signIn();
      const id = await oldAsset(owner, "pending image");
      expect((await confirm(id, owner)).status).toBe(200);
      await h.runOutboxOnce();
      const ready = await read(id, owner);
      expect(ready.body.data.status).toBe("ready");
      expect(keyOf(ready.body.data.url)).toBe(`media/${id}.full`);
      expect(await s3.has(`media/${id}`)).toBe(false);
      for (const key of served(id)) {
        expect(await s3.has(key), key).toBe(true);
      }
    });

    it("purges an orphan of either layout with every object it has", async () => {
      const owner = await h.signIn();
      const old = await oldAsset(owner, "image");
      const video = await oldAsset(owner, "video");
      const fresh = (await processedMedia(h, owner.accessToken, { mimeType: "video/mp4", bytes: TINY_MP4 }))
        .id;
      const unprocessed = (await uploadMedia(h, owner.accessToken)).id;
      expect(await s3.has(`media/${fresh}`)).toBe(true);
      expect(await s3.has(`uploads/${unprocessed}`)).toBe(true);
      h.clock.advance(25 * HOUR);

      const housekeeper = createHousekeeper(h.db.sql, {
        pendingAccountTtlSeconds: h.config.pendingAccountTtlSeconds,
      });
      const counts = await purgeOrphanMedia({ housekeeper, objects: h.runtime.objects.store }, h.clock.now());
      expect(counts.media_objects_failed).toBe(0);
      const { rows } = await h.db.sql.query("SELECT id FROM media_assets WHERE id = ANY($1::uuid[])", [
        [old, video, fresh, unprocessed],
      ]);
      expect(rows).toEqual([]);
      for (const key of [
        ...served(old),
        `media/${video}`,
        `media/${fresh}`,
        `uploads/${fresh}`,
        `uploads/${unprocessed}`,
      ]) {
        expect(await s3.has(key), key).toBe(false);
      }
    });
  });
});
