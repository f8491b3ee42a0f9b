import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { servedKeys } from "@agora/domain/media/media.types";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import { type LocalS3, startLocalS3, TINY_PNG, uploadMedia } from "../../../test/s3";

type ErrorBody = { error: { code: string; message: string; details?: { path: string; message: string }[] } };
type ReadBody = {
  data: {
    id: string;
    url: string | null;
    mime_type: string;
    status: string;
    rejected_reason: string | null;
    width: number | null;
    height: number | null;
    blurhash: string | null;
    variants: { name: string; url: string; width: number; height: number }[];
  };
};

// Debian's libimage-exiftool-perl (.ci/run installs it): an EXIF reader independent of sharp.
const hasExiftool = spawnSync("exiftool", ["-ver"]).status === 0;

/** Every tag exiftool reads in `bytes`, by group:name. */
const exifTags = (directory: string, bytes: Buffer, name: string): Record<string, unknown> => {
  const file = path.join(directory, name);
  writeFileSync(file, bytes);
  const read = spawnSync("exiftool", ["-json", "-G", "-a", "-n", file], { encoding: "utf8" });
  if (read.status !== 0) {
    throw new Error(`exiftool failed on ${name}: ${read.stderr}`);
  }

  return (JSON.parse(read.stdout) as Record<string, unknown>[])[0] ?? {};
};
const gpsTags = (tags: Record<string, unknown>) => Object.keys(tags).filter((tag) => /gps/i.test(tag));

describe("media processing before an image is shown", () => {
  let s3: LocalS3;
  let h: Harness;
  let ada: SignedIn;
  let directory: string;

  beforeAll(async () => {
    s3 = await startLocalS3();
    h = await createHarness({ seed: true, config: { s3: s3.config } });
    ada = await h.signIn();
    directory = mkdtempSync(path.join(tmpdir(), "agora-exif-"));
  });
  afterAll(async () => {
    await h?.close();
    await s3?.close();
    if (directory) {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  const read = (id: string, who: SignedIn = ada) =>
    h.get<ReadBody>(`/api/v1/media/${id}`, { token: who.accessToken });
  const publish = (ids: string[], who: SignedIn = ada) =>
    h.post<ErrorBody>("/api/v1/community/moments", { media_asset_ids: ids }, { token: who.accessToken });
  const download = async (url: string) => {
    const res = await fetch(url);
    expect(res.status, url).toBe(200);

    return Buffer.from(await res.arrayBuffer());
  };

  it.skipIf(!hasExiftool)(
    "serves a JPEG carrying GPS EXIF without GPS from its copy and every variant, turned upright (skipped without exiftool: apt-get install libimage-exiftool-perl)",
    async () => {
      // 1600×1200 pixels stored sideways: EXIF orientation 6 says "turn 90° clockwise to show".
      const plain = await sharp({
        create: { width: 1600, height: 1200, channels: 3, background: { r: 40, g: 120, b: 200 } },
      })
        .jpeg()
        .toBuffer();
      const source = path.join(directory, "gps.jpg");
      writeFileSync(source, plain);
      const tagged = spawnSync(
        "exiftool",
        [
          "-overwrite_original",
          "-GPSLatitude=48.8584",
          "-GPSLatitudeRef=N",
          "-GPSLongitude=2.2945",
          "-GPSLongitudeRef=E",
          "-Orientation#=6",
          "-Make=AgoraCam",
          source,
        ],
        { encoding: "utf8" },
      );
      expect(tagged.status, tagged.stderr).toBe(0);
      const bytes = spawnSync("cat", [source]).stdout as Buffer;
      const uploadedTags = exifTags(directory, bytes, "uploaded.jpg");
      expect(gpsTags(uploadedTags).length).toBeGreaterThan(0);
      expect(uploadedTags["EXIF:Orientation"]).toBe(6);

      const { id } = await uploadMedia(h, ada.accessToken, { mimeType: "image/jpeg", bytes });
      // Published at once: the moment takes the upload (confirming it queues its processing), and
      // until it is processed nobody gets a URL to the bytes, GPS and all: neither its owner nor a
      // reader of the public moment.
      const early = await publish([id]);
      expect(early.status).toBe(201);
      const bob = await h.signIn();
      for (const who of [ada, bob]) {
        const queued = await read(id, who);
        expect(queued.status).toBe(200);
        expect(queued.headers.get("retry-after")).toBe("2");
        expect(queued.body.data).toMatchObject({
          status: "processing",
          url: null,
          expires_at: null,
          retry_after_seconds: 2,
          width: null,
          blurhash: null,
          variants: [],
        });
      }
      expect(await s3.has(servedKeys(id).full)).toBe(false);

      await h.runOutboxOnce();
      const ready = await read(id, bob);
      expect(ready.status).toBe(200);
      const data = ready.body.data;
      // Turned upright: the served copy is 1200 wide and 1600 high.
      expect(data).toMatchObject({ status: "ready", rejected_reason: null, width: 1200, height: 1600 });
      expect(data.blurhash).toMatch(/^[0-9A-Za-z#$%*+,\-.:;=?@[\]^_{|}~]{6,}$/);
      expect(data.variants.map((variant) => [variant.name, variant.width, variant.height])).toEqual([
        ["thumb", 320, 427],
        ["display", 1200, 1600],
      ]);
      const served = [
        { name: "full.jpg", url: data.url ?? "" },
        ...data.variants.map((variant) => ({ name: `${variant.name}.webp`, url: variant.url })),
      ];
      for (const { name, url } of served) {
        const tags = exifTags(directory, await download(url), name);
        expect(gpsTags(tags), name).toEqual([]);
        expect(tags["EXIF:Orientation"], name).toBeUndefined();
        expect(tags["EXIF:Make"], name).toBeUndefined();
      }
      expect((await sharp(await download(data.url ?? "")).metadata()).format).toBe("jpeg");
      expect((await sharp(await download(data.variants[0]?.url ?? "")).metadata()).format).toBe("webp");
      // The upload itself, GPS and all, is gone from the store.
      expect(await s3.has(`uploads/${id}`)).toBe(false);
    },
  );

  it("rejects a PNG declared image/jpeg: it says why, and no record takes it any more (422)", async () => {
    const { id } = await uploadMedia(h, ada.accessToken, { mimeType: "image/jpeg", bytes: TINY_PNG });
    expect((await h.post(`/api/v1/media/${id}/confirm`, undefined, { token: ada.accessToken })).status).toBe(
      200,
    );
    expect((await read(id)).body.data.status).toBe("processing");
    await h.runOutboxOnce();
    const rejected = await read(id);
    expect(rejected.body.data).toMatchObject({ status: "rejected", variants: [], width: null });
    expect(rejected.body.data.rejected_reason).toMatch(/image\/png.*image\/jpeg/);

    const res = await publish([id]);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("validation_failed");
    expect(res.body.error.details?.[0]).toMatchObject({ path: "media_asset_ids.0" });
    expect(res.body.error.details?.[0]?.message).toMatch(/image\/png/);
    const { rows } = await h.db.sql.query("SELECT attached_at FROM media_assets WHERE id = $1", [id]);
    expect(rows[0]).toEqual({ attached_at: null });
  });

  it("queues one processing per upload, however many confirmations and records ask for it", async () => {
    const { id } = await uploadMedia(h, ada.accessToken);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const confirmed = await h.post<ReadBody>(`/api/v1/media/${id}/confirm`, undefined, {
        token: ada.accessToken,
      });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.data).toMatchObject({ status: "processing", url: null });
    }
    expect((await publish([id])).status).toBe(201);
    const { rows } = await h.db.sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM outbox_events WHERE kind = 'media.uploaded' AND aggregate_id = $1",
      [id],
    );
    expect(rows[0]?.n).toBe(1);
  });
});

describe("media processing bounds", () => {
  let s3: LocalS3;
  let h: Harness;

  beforeAll(async () => {
    s3 = await startLocalS3();
    h = await createHarness({
      seed: false,
      config: { s3: s3.config, mediaProcessing: { concurrency: 1, maxInputPixels: 1_000_000 } },
    });
  });
  afterAll(async () => {
    await h?.close();
    await s3?.close();
  });

  it("rejects an image over the pixel limit from its header, without decoding it", async () => {
    const member = await h.signIn();
    const large = await sharp({ create: { width: 1100, height: 1000, channels: 3, background: "#888" } })
      .png()
      .toBuffer();
    const { id } = await uploadMedia(h, member.accessToken, { bytes: large });
    await h.post(`/api/v1/media/${id}/confirm`, undefined, { token: member.accessToken });
    await h.runOutboxOnce();
    const res = await h.get<ReadBody>(`/api/v1/media/${id}`, { token: member.accessToken });
    expect(res.body.data).toMatchObject({
      status: "rejected",
      rejected_reason: expect.stringMatching(/pixels/),
    });
  });
});
