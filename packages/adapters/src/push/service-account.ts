import { readFileSync } from "node:fs";
import type { ServiceAccount } from "firebase-admin/app";

/**
 * Reads the service-account JSON of FCM_CREDENTIALS_FILE; a clear error when it is unusable. Apart
 * from fcm-push.ts so that start-up checks the file without loading firebase-admin.
 */
export const readServiceAccount = (file: string): ServiceAccount => {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`FCM_CREDENTIALS_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code})`);
  }
  try {
    return JSON.parse(text) as ServiceAccount;
  } catch {
    throw new Error(`FCM_CREDENTIALS_FILE: ${file} is not JSON (expected a service-account key file)`);
  }
};
