import { describe, expect, it } from "vitest";
import type { Actor } from "../common/actor";
import { canReadMedia, purposeAcceptsMimeType } from "./media.policy";
import type { MediaAttachments } from "./media.ports";
import { type MediaAsset, mediaMimeTypes, mediaPurposes } from "./media.types";

const actor = (userId: string, role: Actor["role"] = "member"): Actor => ({ userId, role, sessionId: "s" });
const asset = (overrides: Partial<MediaAsset> = {}): MediaAsset => ({
  id: "a",
  ownerId: "owner",
  purpose: "moment",
  mimeType: "image/png",
  sizeBytes: 10,
  objectKey: "media/a",
  status: "uploaded",
  visibility: "private",
  uploadedAt: null,
  attachedAt: null,
  createdAt: new Date(0),
  processing: "ready",
  rejectedReason: null,
  image: null,
  ...overrides,
});
const nowhere: MediaAttachments = {
  onVisibleMoment: false,
  onVisibleListing: false,
  onVisibleMenuItem: false,
  onVisibleProvider: false,
  onVisibleDatingProfile: false,
  onVisibleAvatar: false,
  paymentEvidence: null,
  messageParticipantIds: [],
};

describe("canReadMedia", () => {
  it("lets the owner read, and nobody else while the asset is attached nowhere", () => {
    expect(canReadMedia(actor("owner"), asset(), nowhere)).toBe(true);
    expect(canReadMedia(actor("other"), asset(), nowhere)).toBe(false);
    expect(canReadMedia(actor("admin", "admin"), asset(), nowhere)).toBe(false);
  });

  it("lets anyone read a public asset on a moment they may see, and only then", () => {
    const onMoment = { ...nowhere, onVisibleMoment: true };
    expect(canReadMedia(actor("other"), asset({ visibility: "public" }), onMoment)).toBe(true);
    expect(canReadMedia(actor("other"), asset({ visibility: "public" }), nowhere)).toBe(false);
    expect(canReadMedia(actor("other"), asset({ visibility: "private" }), onMoment)).toBe(false);
  });

  it("lets only the owner read an asset whose bytes processing rejected, wherever it is attached", () => {
    const rejected = asset({ visibility: "public", processing: "rejected", rejectedReason: "not a PNG" });
    const everywhere: MediaAttachments = {
      onVisibleMoment: true,
      onVisibleListing: true,
      onVisibleMenuItem: true,
      onVisibleProvider: true,
      onVisibleDatingProfile: true,
      onVisibleAvatar: true,
      paymentEvidence: { reviewerIds: ["other"] },
      messageParticipantIds: ["owner", "other"],
    };
    expect(canReadMedia(actor("owner"), rejected, everywhere)).toBe(true);
    expect(canReadMedia(actor("other"), rejected, everywhere)).toBe(false);
    expect(canReadMedia(actor("admin", "admin"), rejected, everywhere)).toBe(false);
    // Still processing: the record's readers read it (its state; no URL until it is ready).
    expect(
      canReadMedia(actor("other"), asset({ visibility: "public", processing: "processing" }), everywhere),
    ).toBe(true);
  });

  it("lets anyone read a public asset in the gallery of a listing the public sees, and only then", () => {
    const onListing = { ...nowhere, onVisibleListing: true };
    expect(canReadMedia(actor("other"), asset({ visibility: "public", purpose: "listing" }), onListing)).toBe(
      true,
    );
    expect(canReadMedia(actor("other"), asset({ visibility: "public", purpose: "listing" }), nowhere)).toBe(
      false,
    );
  });

  it("lets others read a menu item's image, a logo, dating photos and an avatar only while their record is visible", () => {
    const cases = [
      ["menu_item", "onVisibleMenuItem"],
      ["provider_logo", "onVisibleProvider"],
      ["dating_photo", "onVisibleDatingProfile"],
      ["avatar", "onVisibleAvatar"],
    ] as const;
    for (const [purpose, fact] of cases) {
      const image = asset({ visibility: "public", purpose });
      expect(canReadMedia(actor("other"), image, { ...nowhere, [fact]: true })).toBe(true);
      expect(canReadMedia(actor("other"), image, nowhere)).toBe(false);
      expect(
        canReadMedia(actor("other"), { ...image, visibility: "private" }, { ...nowhere, [fact]: true }),
      ).toBe(false);
    }
  });

  it("lets a payment's reviewers read its evidence: the listed reviewers and administrators", () => {
    const evidence = { ...nowhere, paymentEvidence: { reviewerIds: ["provider"] } };
    const proof = asset({ purpose: "payment_evidence" });
    expect(canReadMedia(actor("provider"), proof, evidence)).toBe(true);
    expect(canReadMedia(actor("admin", "admin"), proof, evidence)).toBe(true);
    expect(canReadMedia(actor("other"), proof, evidence)).toBe(false);
    expect(canReadMedia(actor("accountant", "accountant"), proof, evidence)).toBe(false);
  });

  it("lets the two participants of the conversation a message asset was sent in read it, and nobody else", () => {
    const sent = { ...nowhere, messageParticipantIds: ["owner", "peer"] };
    const photo = asset({ purpose: "message" });
    expect(canReadMedia(actor("peer"), photo, sent)).toBe(true);
    expect(canReadMedia(actor("owner"), photo, sent)).toBe(true);
    expect(canReadMedia(actor("stranger"), photo, sent)).toBe(false);
    expect(canReadMedia(actor("admin", "admin"), photo, sent)).toBe(false);
    expect(canReadMedia(actor("peer"), photo, nowhere)).toBe(false);
  });
});

describe("purposeAcceptsMimeType", () => {
  it("takes only image types for record images, and video too for moments, messages and evidence", () => {
    const accepted = Object.fromEntries(
      mediaPurposes.map((purpose) => [
        purpose,
        mediaMimeTypes.filter((type) => purposeAcceptsMimeType(purpose, type)),
      ]),
    );
    const images = ["image/jpeg", "image/png", "image/webp"];
    const all = [...images, "video/mp4"];
    expect(accepted).toEqual({
      moment: all,
      message: all,
      payment_evidence: all,
      listing: images,
      menu_item: images,
      provider_logo: images,
      dating_photo: images,
      avatar: images,
    });
  });
});
