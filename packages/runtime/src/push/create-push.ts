import type { PushSender } from "@agora/domain/notifications/notifications.ports";
import type { Config } from "../config";
import { createFcmPush } from "./fcm-push";

export type CreatedPush = { sender: PushSender; close(): Promise<void> };

/**
 * FCM when FCM_PROJECT_ID and FCM_CREDENTIALS_FILE are set; otherwise push is off (undefined), and
 * delivery only writes inbox rows. Throws when the credentials file is unreadable.
 */
export const createPush = (config: Config): CreatedPush | undefined => {
  if (!config.fcm) {
    return undefined;
  }
  const fcm = createFcmPush({ ...config.fcm, timeoutMs: config.timeouts.pushMs });

  return { sender: fcm, close: () => fcm.close() };
};
