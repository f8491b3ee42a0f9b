import { describe, expect, it } from "vitest";
import type { OutgoingMail } from "../../common/mail";
import type { UserWithSecret } from "../identity.types";
import { emailUndoToken, hashToken } from "../secrets";
import { emailChanged } from "./email-changed";

const userId = "0193a5b2-7c1e-7d4f-8a9b-0c1d2e3f4a5b";
const undoId = "0193a5b2-7c1e-7d4f-8a9b-0c1d2e3f4a5c";
const emailUndoKey = Buffer.alloc(32, 7);
const at = new Date("2026-12-11T10:00:00Z");

const user = (status: UserWithSecret["status"]): UserWithSecret => ({
  id: userId,
  email: "new@example.com",
  username: "ada",
  displayName: "Ada",
  locale: null,
  role: "member",
  status,
  createdAt: at,
  passwordHash: "",
});

const deliver = async (status: UserWithSecret["status"] | null) => {
  const sent: OutgoingMail[] = [];
  const event = emailChanged.event(userId, {
    user_id: userId,
    undo_id: undoId,
    old_email: "old@example.com",
  });
  await emailChanged.deliver(
    {
      users: { findById: async () => (status ? user(status) : null) },
      mailer: {
        send: async (mail) => {
          sent.push(mail);
        },
      },
      emailUndoKey,
      emailUndoUrl: "agora://email-undo",
    },
    { ...event, payload: emailChanged.payload.parse(event.payload), id: "e", attempts: 0, createdAt: at },
  );

  return sent;
};

describe("identity.email_changed", () => {
  it("mails the old address the undo link, whose token is the one stored as a hash, the same on every delivery", async () => {
    const [first] = await deliver("active");
    const [again] = await deliver("active");
    expect(first?.to).toBe("old@example.com");
    const token = first?.text.match(/agora:\/\/email-undo\?token=([\w-]+)/)?.[1] ?? "";
    expect(hashToken(token)).toBe(hashToken(emailUndoToken(emailUndoKey, undoId)));
    expect(again?.text).toBe(first?.text);
    expect(first?.text).toContain("reset your password");
  });

  it("mails nothing for an account gone or deleted since", async () => {
    expect(await deliver(null)).toEqual([]);
    expect(await deliver("deleted")).toEqual([]);
  });
});
