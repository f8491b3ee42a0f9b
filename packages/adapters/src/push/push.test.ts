import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PushMessage } from "@agora/domain/notifications/notifications.ports";
import { afterAll, describe, expect, it } from "vitest";
import { createPush } from "./create-push";
import { createFcmPush, createFcmSender, FCM_MULTICAST_LIMIT, PushDeliveryError } from "./fcm-push";
import { createMemoryPush, PushUnavailableError } from "./memory-push";

const message: PushMessage = { title: "New order", body: "2 × Tea", data: { order_id: "o-1" } };

type FakeResponse = { success: boolean; error?: { code: string; message: string } };

/** A stand-in for firebase-admin's Messaging: answers each token as `answer` says and records calls. */
const fakeMessaging = (answer: (token: string) => FakeResponse | Error) => {
  const calls: unknown[] = [];

  return {
    calls,
    messaging: {
      async sendEachForMulticast(multicast: { tokens: string[] }) {
        calls.push(multicast);
        if (multicast.tokens.length > 500) {
          // What firebase-admin does past FCM's limit.
          throw Object.assign(new Error("tokens list must not contain more than 500 items"), {
            code: "messaging/invalid-argument",
          });
        }
        const responses = multicast.tokens.map(answer);
        const thrown = responses.find((response) => response instanceof Error);
        if (thrown) {
          throw thrown;
        }
        const settled = responses as FakeResponse[];

        return {
          responses: settled,
          successCount: settled.filter((response) => response.success).length,
          failureCount: settled.filter((response) => !response.success).length,
        };
      },
    },
  };
};

const failure = (code: string, text = "failed"): FakeResponse => ({
  success: false,
  error: { code: `messaging/${code}`, message: text },
});

describe("FCM sender", () => {
  it("sends one multicast with the notification and string data to every token", async () => {
    const fake = fakeMessaging(() => ({ success: true }));
    const sender = createFcmSender(fake.messaging as never);

    expect(await sender.send(["a", "b"], message)).toEqual({ invalidTokens: [] });
    expect(fake.calls).toEqual([
      {
        tokens: ["a", "b"],
        notification: { title: "New order", body: "2 × Tea" },
        data: { order_id: "o-1" },
      },
    ]);
  });

  it("reports unregistered and invalid tokens as invalid, and a token FCM calls an invalid argument", async () => {
    const fake = fakeMessaging((token) => {
      switch (token) {
        case "gone":
          return failure("registration-token-not-registered");
        case "garbled":
          return failure("invalid-registration-token");
        case "malformed":
          return failure("invalid-argument", "The registration token is not a valid FCM registration token");
        default:
          return { success: true };
      }
    });
    const sender = createFcmSender(fake.messaging as never);

    expect(await sender.send(["ok", "gone", "garbled", "malformed"], message)).toEqual({
      invalidTokens: ["gone", "garbled", "malformed"],
    });
  });

  it("throws PushDeliveryError on failures worth retrying, naming the codes but no token", async () => {
    const fake = fakeMessaging((token) =>
      token === "busy" ? failure("server-unavailable") : failure("registration-token-not-registered"),
    );
    const sender = createFcmSender(fake.messaging as never);

    const error = await sender.send(["busy", "gone"], message).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PushDeliveryError);
    expect((error as Error).message).toBe("FCM refused 1 of 2 tokens (messaging/server-unavailable)");
  });

  it("treats an invalid-argument that is about the message, not the token, as a failure", async () => {
    const fake = fakeMessaging(() => failure("invalid-argument", "Invalid JSON payload received"));
    const sender = createFcmSender(fake.messaging as never);

    await expect(sender.send(["a"], message)).rejects.toBeInstanceOf(PushDeliveryError);
  });

  it("wraps a failed request (network, credentials) in PushDeliveryError with the cause", async () => {
    const outage = Object.assign(new Error("socket hang up"), { code: "app/network-error" });
    const fake = fakeMessaging(() => outage);
    const sender = createFcmSender(fake.messaging as never);

    const error = await sender.send(["a"], message).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PushDeliveryError);
    expect((error as Error).message).toBe("FCM send failed (app/network-error)");
    expect((error as Error).cause).toBe(outage);
  });

  it("gives up on a multicast FCM does not answer within the push timeout, as a PushDeliveryError", async () => {
    const hanging = { sendEachForMulticast: () => new Promise<never>(() => {}) };
    const sender = createFcmSender(hanging as never, { timeoutMs: 100 });

    const started = performance.now();
    const error = await sender.send(["a"], message).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PushDeliveryError);
    expect((error as Error).message).toBe("FCM send failed (timeout)");
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("collapses a keyed notification on the device (Android tag, APNs collapse id)", async () => {
    const fake = fakeMessaging(() => ({ success: true }));
    await createFcmSender(fake.messaging as never).send(["a"], { ...message, collapseKey: "chat:c1" });
    expect(fake.calls[0]).toMatchObject({
      android: { collapseKey: "chat:c1", notification: { tag: "chat:c1" } },
      apns: { headers: { "apns-collapse-id": "chat:c1" } },
    });
  });

  it("sets the app badge on both platforms beside the collapsing, and leaves it alone without one", async () => {
    const fake = fakeMessaging(() => ({ success: true }));
    await createFcmSender(fake.messaging as never).send(["a"], {
      ...message,
      collapseKey: "chat:c1",
      badge: 7,
    });
    await createFcmSender(fake.messaging as never).send(["a"], message);
    expect(fake.calls[0]).toMatchObject({
      android: { collapseKey: "chat:c1", notification: { tag: "chat:c1", notificationCount: 7 } },
      apns: {
        headers: { "apns-collapse-id": "chat:c1" },
        payload: { aps: { threadId: "chat:c1", badge: 7 } },
      },
    });
    expect(JSON.stringify(fake.calls[1])).not.toContain("badge");
    expect(JSON.stringify(fake.calls[1])).not.toContain("notificationCount");
  });

  it("sends more than 500 tokens in chunks of at most 500, collecting dead tokens from every chunk", async () => {
    const tokens = Array.from({ length: 1201 }, (_, i) => `t${i}`);
    const fake = fakeMessaging((token) =>
      token === "t7" || token === "t1100" ? failure("registration-token-not-registered") : { success: true },
    );
    const sender = createFcmSender(fake.messaging as never);

    expect(await sender.send(tokens, message)).toEqual({ invalidTokens: ["t7", "t1100"] });
    const sizes = (fake.calls as { tokens: string[] }[]).map((call) => call.tokens.length);
    expect(sizes).toEqual([FCM_MULTICAST_LIMIT, FCM_MULTICAST_LIMIT, 201]);
    expect((fake.calls as { tokens: string[] }[]).flatMap((call) => call.tokens)).toEqual(tokens);
  });

  it("sends a data-only message (no title) without a notification, for the app to handle", async () => {
    const fake = fakeMessaging(() => ({ success: true }));
    const sender = createFcmSender(fake.messaging as never);
    await sender.send(["a"], { data: { kind: "device.proof", proof: "p" } });
    expect(fake.calls[0]).toMatchObject({ tokens: ["a"], data: { kind: "device.proof", proof: "p" } });
    expect(fake.calls[0]).not.toHaveProperty("notification");
  });

  it("sends nothing for an empty token list", async () => {
    const fake = fakeMessaging(() => ({ success: true }));
    expect(await createFcmSender(fake.messaging as never).send([], message)).toEqual({ invalidTokens: [] });
    expect(fake.calls).toEqual([]);
  });
});

describe("createPush", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "agora-fcm-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const credentialsFile = () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const file = path.join(dir, "service-account.json");
    writeFileSync(
      file,
      JSON.stringify({
        type: "service_account",
        project_id: "agora-test",
        private_key: privateKey.export({ type: "pkcs8", format: "pem" }),
        client_email: "push@agora-test.iam.gserviceaccount.com",
      }),
    );

    return file;
  };

  it("leaves push off when FCM is not configured", () => {
    expect(createPush({ fcm: undefined, timeouts: { pushMs: 10_000 } })).toBeUndefined();
  });

  it("builds the FCM sender from the service-account file, each in its own app, without a network call", async () => {
    const file = credentialsFile();
    const first = createPush({
      fcm: { projectId: "agora-test", credentialsFile: file },
      timeouts: { pushMs: 10_000 },
    });
    const second = createFcmPush({ projectId: "agora-test", credentialsFile: file });
    expect(typeof first?.sender.send).toBe("function");
    await first?.close();
    await second.close();
  });

  it("refuses an unreadable or non-JSON credentials file with a clear message", () => {
    expect(() => createFcmPush({ projectId: "p", credentialsFile: path.join(dir, "missing.json") })).toThrow(
      /^FCM_CREDENTIALS_FILE: cannot read .*missing\.json \(ENOENT\)$/,
    );
    const notJson = path.join(dir, "not.json");
    writeFileSync(notJson, "not json");
    expect(() => createFcmPush({ projectId: "p", credentialsFile: notJson })).toThrow(/is not JSON/);
  });
});

describe("memory push", () => {
  it("records sends, reports marked tokens invalid, and fails the next N calls or all when told", async () => {
    const push = createMemoryPush();
    push.markInvalid("old");
    expect(await push.send(["new", "old"], message)).toEqual({ invalidTokens: ["old"] });
    expect(push.sentTo("new")).toHaveLength(1);

    push.failNext(2);
    await expect(push.send(["new"], message)).rejects.toBeInstanceOf(PushUnavailableError);
    await expect(push.send(["new"], message)).rejects.toBeInstanceOf(PushUnavailableError);
    await push.send(["new"], message);
    expect(push.failures).toBe(2);

    push.failAll();
    await expect(push.send(["new"], message)).rejects.toBeInstanceOf(PushUnavailableError);
    push.failAll(false);
    await push.send(["new"], message);
    expect(push.sentTo("new")).toHaveLength(3);
  });
});
