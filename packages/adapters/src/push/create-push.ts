import type { PushSender } from "@agora/domain/notifications/notifications.ports";
import { loadOnce } from "../lazy";
import type { FcmPush } from "./fcm-push";
import { readServiceAccount } from "./service-account";

export type CreatedPush = { sender: PushSender; close(): Promise<void> };

/**
 * FCM when FCM_PROJECT_ID and FCM_CREDENTIALS_FILE are set; otherwise push is off (undefined), and
 * delivery only writes inbox rows. Throws when the credentials file is unreadable. firebase-admin
 * is loaded at the first send.
 */
/** FCM_* and PUSH_TIMEOUT_MS: push's slice of the configuration. */
export type PushConfig = {
  fcm: { projectId: string; credentialsFile: string } | undefined;
  timeouts: { pushMs: number };
};

export const createPush = (config: PushConfig): CreatedPush | undefined => {
  if (!config.fcm) {
    return undefined;
  }
  const serviceAccount = readServiceAccount(config.fcm.credentialsFile);
  const options = { ...config.fcm, serviceAccount, timeoutMs: config.timeouts.pushMs };
  let created: FcmPush | undefined;
  const fcm = loadOnce(async () => {
    created = (await import("./fcm-push")).createFcmPush(options);

    return created;
  });

  return {
    sender: { send: async (tokens, message) => (await fcm()).send(tokens, message) },
    close: async () => {
      await created?.close();
    },
  };
};
