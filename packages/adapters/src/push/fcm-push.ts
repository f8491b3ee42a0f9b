import { randomUUID } from "node:crypto";
import type { PushMessage, PushSender } from "@agora/domain/notifications/notifications.ports";
import { cert, deleteApp, initializeApp, type ServiceAccount } from "firebase-admin/app";
import { getMessaging, type Messaging, type MulticastMessage } from "firebase-admin/messaging";
import { withDeadline } from "../deadline";
import { readServiceAccount } from "./service-account";

/** FCM error codes that mean "this token will never work again": the device registration is deleted. */
const deadTokenCodes = new Set([
  "messaging/registration-token-not-registered",
  "messaging/invalid-registration-token",
]);

/**
 * `invalid-argument` is FCM's answer both to a malformed token and to a malformed message. Only the
 * first is the token's fault (FCM says so in the message); a bad message must not cost the user
 * their devices, so it is treated as a failure instead.
 */
const isDeadToken = (error: { code?: string; message?: string } | undefined): boolean => {
  if (!error?.code) {
    return false;
  }
  if (deadTokenCodes.has(error.code)) {
    return true;
  }

  return error.code === "messaging/invalid-argument" && /registration token/i.test(error.message ?? "");
};

/** Thrown when FCM did not take a message for a reason worth retrying (outage, quota, auth). */
export class PushDeliveryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PushDeliveryError";
  }
}

type MulticastSender = Pick<Messaging, "sendEachForMulticast">;

/** One multicast waits at most this long (PUSH_TIMEOUT_MS); firebase-admin has no timeout of its own. */
const DEFAULT_PUSH_TIMEOUT_MS = 10_000;

/** FCM's limit of tokens per multicast; firebase-admin throws past it. */
export const FCM_MULTICAST_LIMIT = 500;

/** One notification per key on the device: Android replaces by tag, iOS by apns-collapse-id. */
const collapsing = (key: string | undefined) =>
  key === undefined
    ? {}
    : {
        android: { collapseKey: key, notification: { tag: key } },
        apns: { headers: { "apns-collapse-id": key }, payload: { aps: { threadId: key } } },
      };

/** The app icon's badge: APNs `aps.badge`, Android's notification count (beside the collapsing). */
const withBadge = (multicast: MulticastMessage, badge: number | undefined): MulticastMessage =>
  badge === undefined
    ? multicast
    : {
        ...multicast,
        android: {
          ...multicast.android,
          notification: { ...multicast.android?.notification, notificationCount: badge },
        },
        apns: {
          ...multicast.apns,
          payload: { ...multicast.apns?.payload, aps: { ...multicast.apns?.payload?.aps, badge } },
        },
      };

/** A visible notification with data, or data only (delivered to the app in the background). */
const multicastOf = (tokens: string[], message: PushMessage): MulticastMessage =>
  message.title === undefined
    ? {
        tokens,
        data: message.data,
        android: { priority: "high" },
        apns: { headers: { "apns-priority": "5" }, payload: { aps: { contentAvailable: true } } },
      }
    : withBadge(
        {
          tokens,
          notification: { title: message.title, body: message.body ?? "" },
          data: message.data,
          ...collapsing(message.collapseKey),
        },
        message.badge,
      );

/**
 * The PushSender over a Messaging client: one multicast per chunk of at most 500 tokens (FCM's
 * limit). Tokens FCM reports dead are returned as invalid; any other per-token failure throws
 * PushDeliveryError once every chunk was tried, so the event is retried (devices that already got
 * it may get it again: delivery is at least once).
 */
export const createFcmSender = (
  messaging: MulticastSender,
  options: { timeoutMs?: number } = {},
): PushSender => ({
  async send(tokens, message) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_PUSH_TIMEOUT_MS;
    const invalidTokens: string[] = [];
    const failed: string[] = [];
    for (let start = 0; start < tokens.length; start += FCM_MULTICAST_LIMIT) {
      const chunk = tokens.slice(start, start + FCM_MULTICAST_LIMIT);
      let batch: Awaited<ReturnType<MulticastSender["sendEachForMulticast"]>>;
      try {
        // A timed-out send fails the event, which the outbox retries later (at least once).
        batch = await withDeadline(
          messaging.sendEachForMulticast(multicastOf(chunk, message)),
          timeoutMs,
          () => Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: "timeout" }),
        );
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        throw new PushDeliveryError(`FCM send failed${typeof code === "string" ? ` (${code})` : ""}`, {
          cause: error,
        });
      }
      batch.responses.forEach((response, index) => {
        const token = chunk[index];
        if (response.success || token === undefined) {
          return;
        }
        if (isDeadToken(response.error)) {
          invalidTokens.push(token);
        } else {
          failed.push(response.error?.code ?? "unknown-error");
        }
      });
    }
    if (failed.length > 0) {
      throw new PushDeliveryError(
        `FCM refused ${failed.length} of ${tokens.length} tokens (${[...new Set(failed)].join(", ")})`,
      );
    }

    return { invalidTokens };
  },
});

export type FcmPush = PushSender & { close(): Promise<void> };

/**
 * Firebase Cloud Messaging through firebase-admin, in an app instance of its own (so nothing else in
 * the process that uses firebase-admin shares or clobbers its credentials). Nothing is fetched
 * until the first send.
 */
export const createFcmPush = (options: {
  projectId: string;
  /** The service-account key file (FCM_CREDENTIALS_FILE), unless `serviceAccount` was read already. */
  credentialsFile: string;
  serviceAccount?: ServiceAccount | undefined;
  timeoutMs?: number | undefined;
}): FcmPush => {
  const account = options.serviceAccount ?? readServiceAccount(options.credentialsFile);
  const app = initializeApp(
    { credential: cert(account), projectId: options.projectId },
    `agora-push-${randomUUID()}`,
  );

  return {
    ...createFcmSender(getMessaging(app), { timeoutMs: options.timeoutMs }),
    close: () => deleteApp(app),
  };
};
