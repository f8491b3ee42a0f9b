import type { ChannelGrant } from "@agora/domain/chat/open-channel";
import { describe, expect, it } from "vitest";
import { createSocketCaps } from "./socket-caps";

const grant = (sessionId: string, conversationId: string, userId = "u1"): ChannelGrant => ({
  sessionId,
  conversationId,
  userId,
  peerId: "u2",
  afterSeq: 0,
});

describe("createSocketCaps", () => {
  it("refuses at the first cap reached, in order: the session on the conversation, the session, the user", () => {
    const caps = createSocketCaps({ perConversation: 2, perSession: 3, perUser: 4, max: 100 });
    expect(typeof caps.take(grant("s1", "c1"))).toBe("object");
    expect(typeof caps.take(grant("s1", "c1"))).toBe("object");
    expect(caps.take(grant("s1", "c1"))).toBe("conversation");
    expect(typeof caps.take(grant("s1", "c2"))).toBe("object");
    expect(caps.take(grant("s1", "c3"))).toBe("session");
    expect(typeof caps.take(grant("s2", "c1"))).toBe("object");
    expect(caps.take(grant("s2", "c2"))).toBe("user");
    // Another user is counted apart.
    expect(typeof caps.take(grant("s3", "c1", "u2"))).toBe("object");
    expect(caps.held).toBe(5);
  });

  it("frees a place once, however often it is released, and reports a process over its maximum", () => {
    const caps = createSocketCaps({ perConversation: 1, perSession: 10, perUser: 10, max: 1 });
    const first = caps.take(grant("s1", "c1"));
    if (typeof first === "string") {
      throw new Error(first);
    }
    expect(caps.overfull).toBe(false);
    const second = caps.take(grant("s2", "c1"));
    expect(caps.overfull).toBe(true);
    first.release();
    first.release();
    expect(caps.held).toBe(1);
    expect(caps.overfull).toBe(false);
    expect(typeof caps.take(grant("s1", "c1"))).toBe("object");
    expect(typeof second).toBe("object");
  });
});
