import { describe, expect, it } from "vitest";
import {
  chatParticipant,
  chatSendRefusal,
  markerAfterRead,
  markersAfterSend,
  orderedPair,
  presenceTimings,
  presenceVisible,
  typingAccepted,
  unreadCount,
} from "./chat.policy";
import type { ReadMarker } from "./chat.types";

const ada = "0190a000-0000-7000-8000-00000000000a";
const bo = "0190a000-0000-7000-8000-00000000000b";
const eve = "0190a000-0000-7000-8000-00000000000e";
const conversation = { participantIds: orderedPair(bo, ada) };
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));
const marker = (userId: string, lastReadSeq: number, readAt: Date | null): ReadMarker => ({
  conversationId: "c",
  userId,
  lastReadSeq,
  readAt,
});

describe("chat policy", () => {
  it("stores a pair smaller id first, whoever starts it", () => {
    expect(orderedPair(bo, ada)).toEqual([ada, bo]);
    expect(orderedPair(ada, bo)).toEqual([ada, bo]);
  });

  it("participation: the two participants only", () => {
    expect(chatParticipant(ada, conversation)).toBe(true);
    expect(chatParticipant(bo, conversation)).toBe(true);
    expect(chatParticipant(eve, conversation)).toBe(false);
  });

  it("refuses a send to a stranger as not found (before blocks), to a blocked pair as blocked", () => {
    expect(chatSendRefusal({ participant: false, blockedEitherWay: false })).toBe("not_found");
    expect(chatSendRefusal({ participant: false, blockedEitherWay: true })).toBe("not_found");
    expect(chatSendRefusal({ participant: true, blockedEitherWay: true })).toBe("blocked");
    expect(chatSendRefusal({ participant: true, blockedEitherWay: false })).toBeNull();
  });

  it("sending marks as read: the sender's marker moves to the message, the other's stays", () => {
    const markers = [marker(ada, 2, at(1)), marker(bo, 4, at(2))];
    expect(markersAfterSend(markers, { senderId: ada, seq: 5, createdAt: at(3) })).toEqual([
      marker(ada, 5, at(3)),
      marker(bo, 4, at(2)),
    ]);
    // So what is unread after the send is the other participant's messages only.
    expect(unreadCount({ lastSeq: 5 }, { lastReadSeq: 5 })).toBe(0);
    expect(unreadCount({ lastSeq: 5 }, { lastReadSeq: 4 })).toBe(1);
  });

  it("reading moves the marker to the newest message and never moves it, or its time, back", () => {
    expect(markerAfterRead(marker(ada, 0, null), 3, at(5))).toEqual(marker(ada, 3, at(5)));
    expect(markerAfterRead(marker(ada, 3, at(5)), 7, at(6))).toEqual(marker(ada, 7, at(6)));
    // A late request (an earlier time) moves neither back.
    expect(markerAfterRead(marker(ada, 7, at(6)), 7, at(4))).toEqual(marker(ada, 7, at(6)));
  });

  it("presence: seen by who shares a conversation, never across a block", () => {
    expect(presenceVisible({ sharesConversation: true, blockedEitherWay: false })).toBe(true);
    expect(presenceVisible({ sharesConversation: true, blockedEitherWay: true })).toBe(false);
    expect(presenceVisible({ sharesConversation: false, blockedEitherWay: false })).toBe(false);
  });

  it("typing: one frame per interval per socket, the first always", () => {
    expect(typingAccepted(undefined, 0, 2_000)).toBe(true);
    expect(typingAccepted(1_000, 1_000, 2_000)).toBe(false);
    expect(typingAccepted(1_000, 2_999, 2_000)).toBe(false);
    expect(typingAccepted(1_000, 3_000, 2_000)).toBe(true);
  });

  it("presence timing: a dead process's users show offline within the timeout, a live row is never swept", () => {
    const { refreshMs, staleAfterMs } = presenceTimings(60_000);
    expect(refreshMs).toBe(15_000);
    expect(staleAfterMs).toBe(45_000);
    // Last refresh at 0, death right after: swept by the first sweep after staleAfterMs.
    expect(staleAfterMs + refreshMs).toBeLessThanOrEqual(60_000);
    // A live row is refreshed every refreshMs: it never reaches staleAfterMs, with room for a slow refresh.
    expect(staleAfterMs - refreshMs).toBeGreaterThanOrEqual(refreshMs);
    expect(presenceTimings(1_000)).toEqual({ refreshMs: 250, staleAfterMs: 750 });
  });
});
