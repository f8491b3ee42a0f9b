import { describe, expect, it } from "vitest";
import type { NewNotification } from "../notifications/notifications.ports";
import type { MediaProcessor, ObjectStore, ProcessedMedia } from "./media.ports";
import type { MediaAsset } from "./media.types";
import { MEDIA_REJECTED_NOTICE, type MediaProcessingDeps, processMedia } from "./process-media";

const asset = (overrides: Partial<MediaAsset> = {}): MediaAsset => ({
  id: "a",
  ownerId: "owner",
  purpose: "moment",
  mimeType: "image/jpeg",
  sizeBytes: 3,
  objectKey: "uploads/a",
  status: "uploaded",
  visibility: "private",
  uploadedAt: new Date(0),
  attachedAt: null,
  createdAt: new Date(0),
  processing: "processing",
  rejectedReason: null,
  image: null,
  ...overrides,
});

const image: ProcessedMedia = {
  kind: "image",
  image: {
    width: 4,
    height: 3,
    blurhash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj",
    variants: { thumb: { width: 4, height: 3 }, display: { width: 4, height: 3 } },
  },
  full: new Uint8Array([1]),
  variants: { thumb: new Uint8Array([2]), display: new Uint8Array([3]) },
};

/** The asset's row as the repository keeps it (the processing → outcome transition once), and a store. */
const world = (start: MediaAsset, outcome: ProcessedMedia) => {
  let row = start;
  const objects = new Map<string, Uint8Array>([[start.objectKey, new Uint8Array([9, 9, 9])]]);
  const calls: string[] = [];
  const store: ObjectStore = {
    presignUpload: () => Promise.reject(new Error("unused")),
    presignRead: () => Promise.reject(new Error("unused")),
    head: () => Promise.reject(new Error("unused")),
    get: async (key, maxBytes) => {
      const bytes = objects.get(key);

      return bytes && bytes.length <= maxBytes ? bytes : null;
    },
    copy: async (from, to) => {
      calls.push(`copy ${from} ${to}`);
      const bytes = objects.get(from);
      if (bytes) {
        objects.set(to, bytes);
      }

      return bytes !== undefined;
    },
    put: async (key, bytes) => {
      calls.push(`put ${key}`);
      objects.set(key, bytes);
    },
    delete: async (key) => {
      calls.push(`delete ${key}`);
      objects.delete(key);
    },
  };
  const processor: MediaProcessor = {
    process: async () => {
      calls.push("process");

      return outcome;
    },
  };
  const media: MediaProcessingDeps["mediaProcessing"]["media"] = {
    findById: async () => row,
    recordProcessing: async (_id, result) => {
      if (row.processing !== "processing") {
        return null;
      }
      row =
        result.processing === "ready"
          ? { ...row, processing: "ready", image: result.image }
          : { ...row, processing: "rejected", rejectedReason: result.reason };

      return row;
    },
  };
  const signalled: string[] = [];
  // The inbox as notify writes it without a push provider: rows by id (a redelivery writes none twice).
  const inbox = new Map<string, NewNotification>();
  const notifications = {
    addMany: async (rows: readonly NewNotification[]) => {
      for (const added of rows) {
        if (!inbox.has(added.id)) {
          inbox.set(added.id, added);
        }
      }
    },
  } as unknown as MediaProcessingDeps["notifications"];
  const deps: MediaProcessingDeps = {
    mediaProcessing: {
      media,
      objects: store,
      processor,
      signals: { processed: async (id) => void signalled.push(id) },
    },
    notifications,
    devices: {} as MediaProcessingDeps["devices"],
    push: undefined,
    clock: { now: () => new Date(0) },
  };

  return { deps, objects, calls, signalled, inbox, row: () => row };
};

const event = { id: "0196a0c4-7a55-7d2b-9f3e-aaaaaaaaaaaa", createdAt: new Date(0) };

describe("processMedia", () => {
  it("stores an image's copy and variants, records it ready, then deletes the upload; a redelivery does nothing", async () => {
    const w = world(asset(), image);
    await processMedia(w.deps, event, "a");
    expect(w.row()).toMatchObject({
      processing: "ready",
      image: image.kind === "image" ? image.image : null,
    });
    expect(w.calls).toEqual([
      "process",
      "put media/a.full",
      "put media/a.thumb.webp",
      "put media/a.display.webp",
      "delete uploads/a",
    ]);
    await processMedia(w.deps, event, "a");
    expect(w.calls).toHaveLength(5);
  });

  it("records a rejection with its reason and stores nothing", async () => {
    const w = world(asset(), {
      kind: "rejected",
      reason: "its bytes are a image/png, not the declared image/jpeg",
    });
    await processMedia(w.deps, event, "a");
    expect(w.row()).toMatchObject({
      processing: "rejected",
      rejectedReason: expect.stringMatching(/image\/png/),
    });
    expect(w.calls).toEqual(["process"]);
    expect(w.objects.has("uploads/a")).toBe(true);
  });

  it("serves a video from its copy under media/: copied first, the copy checked, ready, then the upload deleted", async () => {
    const w = world(asset({ mimeType: "video/mp4" }), { kind: "video" });
    await processMedia(w.deps, event, "a");
    expect(w.row()).toMatchObject({ processing: "ready", image: null });
    expect(w.calls).toEqual(["copy uploads/a media/a", "process", "delete uploads/a"]);
    expect([...w.objects.keys()]).toEqual(["media/a"]);
    await processMedia(w.deps, event, "a");
    expect(w.calls).toHaveLength(3);
  });

  it("drops a rejected video's copy, so nothing rejected is under media/", async () => {
    const w = world(asset({ mimeType: "video/mp4" }), { kind: "rejected", reason: "not an MP4" });
    await processMedia(w.deps, event, "a");
    expect(w.row()).toMatchObject({ processing: "rejected", rejectedReason: "not an MP4" });
    expect(w.calls).toEqual(["copy uploads/a media/a", "process", "delete media/a"]);
    expect([...w.objects.keys()]).toEqual(["uploads/a"]);
  });

  it("keeps an old-layout video where it was uploaded (media/<id> is its served key): no copy, no deletion", async () => {
    const w = world(asset({ mimeType: "video/mp4", objectKey: "media/a" }), { kind: "video" });
    await processMedia(w.deps, event, "a");
    expect(w.row()).toMatchObject({ processing: "ready", image: null });
    expect(w.calls).toEqual(["process"]);
    expect(w.objects.has("media/a")).toBe(true);
  });

  it("derives an old-layout image's copies from its id and deletes its upload media/<id>", async () => {
    const w = world(asset({ objectKey: "media/a" }), image);
    await processMedia(w.deps, event, "a");
    expect(w.calls).toEqual([
      "process",
      "put media/a.full",
      "put media/a.thumb.webp",
      "put media/a.display.webp",
      "delete media/a",
    ]);
    expect([...w.objects.keys()].sort()).toEqual([
      "media/a.display.webp",
      "media/a.full",
      "media/a.thumb.webp",
    ]);
  });

  it("rejects an upload gone from the store or larger than declared, without processing it", async () => {
    const w = world(asset({ sizeBytes: 2 }), image);
    await processMedia(w.deps, event, "a");
    expect(w.row()).toMatchObject({ processing: "rejected" });
    expect(w.calls).toEqual([]);
  });

  it("leaves an asset alone unless it is an uploaded one being processed", async () => {
    for (const start of [
      asset({ processing: "ready" }),
      asset({ status: "expired" }),
      asset({ processing: null }),
    ]) {
      const w = world(start, image);
      await processMedia(w.deps, event, "a");
      expect(w.calls).toEqual([]);
      expect(w.row()).toBe(start);
    }
  });

  it("tells nobody about an asset no record holds yet", async () => {
    const ready = world(asset(), image);
    await processMedia(ready.deps, event, "a");
    const rejected = world(asset(), { kind: "rejected", reason: "not a JPEG" });
    await processMedia(rejected.deps, event, "a");
    expect([...ready.signalled, ...rejected.signalled]).toEqual([]);
    expect(rejected.inbox.size).toBe(0);
  });

  it("signals the records of an attached asset once it is ready, without a notice", async () => {
    const w = world(asset({ attachedAt: new Date(0) }), image);
    await processMedia(w.deps, event, "a");
    expect(w.signalled).toEqual(["a"]);
    expect(w.inbox.size).toBe(0);
  });

  it("gives the owner of an attached asset one notice when its bytes are rejected, also when redelivered", async () => {
    const w = world(asset({ attachedAt: new Date(0) }), {
      kind: "rejected",
      reason: "its bytes are a image/png, not the declared image/jpeg",
    });
    await processMedia(w.deps, event, "a");
    // A redelivery (the first one's outcome recorded, its acknowledgement lost) signals again and
    // writes no second notice.
    await processMedia(w.deps, event, "a");
    expect(w.calls).toEqual(["process"]);
    expect(w.signalled).toEqual(["a", "a"]);
    expect([...w.inbox.values()]).toEqual([
      expect.objectContaining({
        userId: "owner",
        kind: MEDIA_REJECTED_NOTICE,
        body: expect.stringMatching(/image\/png, not the declared image\/jpeg/),
        data: { media_asset_id: "a", purpose: "moment" },
      }),
    ]);
  });
});
