import { describe, expect, it } from "vitest";
import type { OutgoingMail } from "../../common/mail";
import type { UserWithSecret } from "../identity.types";
import { newSignIn, passwordChanged } from "./account-notices";

const userId = "0193a5b2-7c1e-7d4f-8a9b-0c1d2e3f4a5b";
const sessionId = "0193a5b2-7c1e-7d4f-8a9b-0c1d2e3f4a5c";
const at = new Date("2026-12-11T10:00:00Z");

const deps = (status: UserWithSecret["status"] | null, sent: OutgoingMail[]) => ({
  users: {
    findById: async (): Promise<UserWithSecret | null> =>
      status
        ? {
            id: userId,
            email: "ada@example.com",
            username: "ada",
            displayName: "Ada",
            locale: null,
            role: "member",
            status,
            createdAt: at,
            passwordHash: "",
          }
        : null,
  },
  mailer: {
    send: async (mail: OutgoingMail) => {
      sent.push(mail);
    },
  },
});

const claimed = { id: "e", attempts: 0, createdAt: at };

const deliverPasswordChanged = async (status: UserWithSecret["status"] | null, sessionsEnded: number) => {
  const sent: OutgoingMail[] = [];
  const payload = { user_id: userId, changed_at: at.toISOString(), sessions_ended: sessionsEnded };
  const event = passwordChanged.event(userId, payload);
  await passwordChanged.deliver(deps(status, sent), {
    ...event,
    ...claimed,
    payload: passwordChanged.payload.parse(payload),
  });

  return sent;
};

const deliverNewSignIn = async (status: UserWithSecret["status"] | null) => {
  const sent: OutgoingMail[] = [];
  const payload = {
    user_id: userId,
    session_id: sessionId,
    signed_in_at: at.toISOString(),
    platform: "android",
    address_hint: "198.51.100.0/24",
    user_agent: "Agora/2.3",
  };
  const event = newSignIn.event(userId, payload);
  await newSignIn.deliver(deps(status, sent), {
    ...event,
    ...claimed,
    payload: newSignIn.payload.parse(payload),
  });

  return sent;
};

describe("identity.password_changed", () => {
  it("mails the owner when and how many other sessions it ended, the same on every delivery", async () => {
    const [one] = await deliverPasswordChanged("active", 1);
    expect(one?.to).toBe("ada@example.com");
    expect(one?.text).toContain("2026-12-11 10:00 UTC");
    expect(one?.text).toContain("One other session was signed out.");
    const [three] = await deliverPasswordChanged("active", 3);
    expect(three?.text).toContain("3 other sessions were signed out.");
    expect((await deliverPasswordChanged("active", 1))[0]?.text).toBe(one?.text);
  });

  it("mails nothing for an account gone or deleted since", async () => {
    expect(await deliverPasswordChanged(null, 1)).toEqual([]);
    expect(await deliverPasswordChanged("deleted", 1)).toEqual([]);
  });
});

describe("identity.new_sign_in", () => {
  it("mails the owner the platform, the network and where to end the session", async () => {
    const [mail] = await deliverNewSignIn("active");
    expect(mail?.subject).toBe("New sign-in to your Agora account");
    expect(mail?.text).toContain("an Android device on the network 198.51.100.0/24 (it said: Agora/2.3)");
    expect(mail?.text).toContain("Account > Sessions");
  });

  it("mails nothing for an account gone or deleted since", async () => {
    expect(await deliverNewSignIn(null)).toEqual([]);
    expect(await deliverNewSignIn("deleted")).toEqual([]);
  });
});
