import { describe, expect, it } from "vitest";
import { chatNoticeId, notificationId } from "./notify";

const userId = "0196a0c4-7a55-7d2b-9f3e-1c2d3e4f5a6b";
const eventId = "0196a0c4-7a55-7d2b-9f3e-aaaaaaaaaaaa";

describe("notificationId", () => {
  it("is the same UUID for the same event and recipient, and differs for another recipient or event", () => {
    const id = notificationId(eventId, userId);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(notificationId(eventId, userId)).toBe(id);
    expect(notificationId(eventId, userId.toUpperCase())).toBe(id);
    expect(notificationId(eventId, userId.replace(/b$/, "c"))).not.toBe(id);
    expect(notificationId(eventId.replace(/a$/, "b"), userId)).not.toBe(id);
  });
});

describe("chatNoticeId", () => {
  const conversationId = "0196a0c4-7a55-7d2b-9f3e-cccccccccccc";

  it("is one UUID per recipient and conversation, whatever the message, and never an event's", () => {
    const id = chatNoticeId(conversationId, userId);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(chatNoticeId(conversationId.toUpperCase(), userId.toUpperCase())).toBe(id);
    expect(chatNoticeId(conversationId, userId.replace(/b$/, "c"))).not.toBe(id);
    expect(chatNoticeId(conversationId.replace(/c$/, "d"), userId)).not.toBe(id);
    expect(notificationId(conversationId, userId)).not.toBe(id);
  });
});
