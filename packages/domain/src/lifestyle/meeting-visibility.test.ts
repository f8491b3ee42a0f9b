import { describe, expect, it } from "vitest";
import type { Actor } from "../common/actor";
import { canBeInvited, canSeeMeeting } from "./lifestyle.policy";
import type { InviteeCandidate, Meeting } from "./lifestyle.types";

const actor = (userId: string, role: Actor["role"] = "member"): Actor => ({ userId, role, sessionId: "s" });
const meeting = (overrides: Partial<Meeting> = {}): Meeting => ({
  id: "m",
  hostId: "host",
  title: "Planning",
  startsAt: new Date(0),
  status: "scheduled",
  visibility: "open",
  inviteeIds: [],
  endedAt: null,
  createdAt: new Date(0),
  ...overrides,
});
const candidate = (overrides: Partial<InviteeCandidate> = {}): InviteeCandidate => ({
  userId: "u",
  status: "active",
  blockedEitherWay: false,
  ...overrides,
});

describe("canSeeMeeting", () => {
  it("shows an open meeting to everyone", () => {
    for (const who of [actor("host"), actor("anyone"), actor("admin", "admin")]) {
      expect(canSeeMeeting(who, meeting())).toBe(true);
    }
  });

  it("shows a private meeting to its host and invitees only, administrators included in the rest", () => {
    const invited = meeting({ visibility: "private", inviteeIds: ["ada", "bo"] });
    expect(canSeeMeeting(actor("host"), invited)).toBe(true);
    expect(canSeeMeeting(actor("ada"), invited)).toBe(true);
    expect(canSeeMeeting(actor("bo"), invited)).toBe(true);
    expect(canSeeMeeting(actor("cy"), invited)).toBe(false);
    expect(canSeeMeeting(actor("admin", "admin"), invited)).toBe(false);
  });

  it("keeps a private meeting private when its invitee list is empty", () => {
    const alone = meeting({ visibility: "private", inviteeIds: [] });
    expect(canSeeMeeting(actor("host"), alone)).toBe(true);
    expect(canSeeMeeting(actor("anyone"), alone)).toBe(false);
  });
});

describe("canBeInvited", () => {
  it("takes an active account with no block either way, and nothing else", () => {
    expect(canBeInvited(candidate())).toBe(true);
    expect(canBeInvited(candidate({ blockedEitherWay: true }))).toBe(false);
    for (const status of ["pending_verification", "suspended", "deleted"] as const) {
      expect(canBeInvited(candidate({ status })), status).toBe(false);
    }
  });
});
