import { describe, expect, it } from "vitest";
import type { MediaProcessor, ObjectStore, ProcessedMedia } from "./media.ports";
import type { MediaAsset } from "./media.types";
import { type MediaProcessingDeps, processMedia } from "./process-media";

const asset = (overrides: Partial<MediaAsset> = {}): MediaAsset => ({
  id: "a",
  ownerId: "owner",
  purpose: "moment",
  mimeType: "image/jpeg",
  sizeBytes: 3,
  objectKey: "media/a",
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
        return false;
      }
      row =
        result.processing === "ready"
          ? { ...row, processing: "ready", image: result.image }
          : { ...row, processing: "rejected", rejectedReason: result.reason };

      return true;
    },
  };
  const deps: MediaProcessingDeps = { mediaProcessing: { media, objects: store, processor } };

  return { deps, objects, calls, row: () => row };
};

describe("processMedia", () => {
  it("stores an image's copy and variants, records it ready, then deletes the upload; a redelivery does nothing", async () => {
    const w = world(asset(), image);
    await processMedia(w.deps, "a");
    expect(w.row()).toMatchObject({
      processing: "ready",
      image: image.kind === "image" ? image.image : null,
    });
    expect(w.calls).toEqual([
      "process",
      "put media/a.full",
      "put media/a.thumb.webp",
      "put media/a.display.webp",
      "delete media/a",
    ]);
    await processMedia(w.deps, "a");
    expect(w.calls).toHaveLength(5);
  });

  it("records a rejection with its reason and stores nothing", async () => {
    const w = world(asset(), {
      kind: "rejected",
      reason: "its bytes are a image/png, not the declared image/jpeg",
    });
    await processMedia(w.deps, "a");
    expect(w.row()).toMatchObject({
      processing: "rejected",
      rejectedReason: expect.stringMatching(/image\/png/),
    });
    expect(w.calls).toEqual(["process"]);
    expect(w.objects.has("media/a")).toBe(true);
  });

  it("takes a video as uploaded: ready without an image, its upload kept (it is what is served)", async () => {
    const w = world(asset({ mimeType: "video/mp4" }), { kind: "video" });
    await processMedia(w.deps, "a");
    expect(w.row()).toMatchObject({ processing: "ready", image: null });
    expect(w.calls).toEqual(["process"]);
    expect(w.objects.has("media/a")).toBe(true);
  });

  it("rejects an upload gone from the store or larger than declared, without processing it", async () => {
    const w = world(asset({ sizeBytes: 2 }), image);
    await processMedia(w.deps, "a");
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
      await processMedia(w.deps, "a");
      expect(w.calls).toEqual([]);
      expect(w.row()).toBe(start);
    }
  });
});
