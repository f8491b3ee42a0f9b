import { createHmac, timingSafeEqual } from "node:crypto";
import { acceptedKeys, type KeyRing } from "../common/derived-keys";

/** A proof is valid in the window it was made in and the next one: 10 to 20 minutes. */
const WINDOW_MS = 10 * 60_000;

const proofFor = (key: Buffer, userId: string, token: string, window: number): string =>
  createHmac("sha256", key)
    .update(`${userId.toLowerCase()}:${window}:${token}`)
    .digest("base64url")
    .slice(0, 32);

/**
 * The proof that `userId`'s device receives the pushes of `token`: sent to that token only, as a
 * data push, and echoed back on registration. Stateless (an HMAC of user, token and time window,
 * under the current key of KEY_PURPOSES.deviceProofs).
 */
export const deviceProof = (key: Buffer, userId: string, token: string, now: Date): string =>
  proofFor(key, userId, token, Math.floor(now.getTime() / WINDOW_MS));

/** Whether `proof` is one made for this window or the last, under any key the ring accepts. */
export const isDeviceProofValid = (
  keys: KeyRing,
  userId: string,
  token: string,
  proof: string,
  now: Date,
): boolean => {
  const window = Math.floor(now.getTime() / WINDOW_MS);
  const offered = Buffer.from(proof);

  return acceptedKeys(keys).some((key) =>
    [window, window - 1].some((candidate) => {
      const expected = Buffer.from(proofFor(key, userId, token, candidate));

      return expected.length === offered.length && timingSafeEqual(expected, offered);
    }),
  );
};

/** The data key a device-proof push carries (`kind`), so the app can tell it apart. */
export const DEVICE_PROOF_KIND = "device.proof";
