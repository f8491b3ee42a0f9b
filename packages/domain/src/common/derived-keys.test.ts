// The one derivation of keys from TOKEN_SECRET (docs/accounts.md, "Keys from TOKEN_SECRET"):
// HKDF-SHA256 with the fixed salt and the purpose's label, the secret boxes' scheme, and the
// legacy keys the rings still accept during the transition.
import { createCipheriv, createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { acceptedKeys, deriveKey, KEY_PURPOSES, type KeyPurpose, keyRing } from "./derived-keys";
import { createSecretBox } from "./secret-box";

const SECRET = "a-token-secret-of-at-least-32-bytes-0123";
const purposes = Object.values(KEY_PURPOSES);

/** RFC 5869 by hand, for one 32-byte block: PRK = HMAC(salt, secret); OKM = HMAC(PRK, info ‖ 0x01). */
const hkdfByHand = (secret: string, salt: string, info: string): Buffer => {
  const prk = createHmac("sha256", salt).update(secret).digest();

  return createHmac("sha256", prk)
    .update(Buffer.concat([Buffer.from(info), Buffer.from([1])]))
    .digest();
};

describe("deriveKey", () => {
  it("is HKDF-SHA256 of the secret with salt 'agora' and the purpose's label as info: 32 bytes", () => {
    for (const purpose of purposes) {
      const key = deriveKey(SECRET, purpose);
      expect(key).toHaveLength(32);
      expect(key.equals(hkdfByHand(SECRET, "agora", purpose)), purpose).toBe(true);
    }
  });

  it("gives the same key for the same secret and purpose, another for another purpose or secret", () => {
    expect(deriveKey(SECRET, KEY_PURPOSES.codes).equals(deriveKey(SECRET, KEY_PURPOSES.codes))).toBe(true);
    const keys = purposes.map((purpose) => deriveKey(SECRET, purpose).toString("hex"));
    expect(new Set(keys).size).toBe(purposes.length);
    expect(new Set(purposes).size).toBe(purposes.length);
    for (const purpose of purposes) {
      expect(deriveKey(`${SECRET}x`, purpose).equals(deriveKey(SECRET, purpose)), purpose).toBe(false);
    }
  });

  it("keeps the secret boxes' keys: a box sealed under the key as it was derived before opens", () => {
    for (const purpose of [KEY_PURPOSES.guestCapabilities, KEY_PURPOSES.idempotentAnswers]) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", hkdfByHand(SECRET, "agora", purpose), iv);
      const sealed = Buffer.concat([cipher.update("the capability", "utf8"), cipher.final()]);
      const box = [iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url")).join(".");
      expect(createSecretBox(SECRET, purpose).open(box)).toBe("the capability");
    }
  });
});

describe("keyRing", () => {
  /** The keys as they were derived before deriveKey (the transition accepts them). */
  const legacy: Partial<Record<KeyPurpose, string>> = {
    [KEY_PURPOSES.accessTokens]: SECRET,
    [KEY_PURPOSES.codes]: `${SECRET}:codes`,
    [KEY_PURPOSES.refreshSuccessors]: `${SECRET}:refresh-successor`,
    [KEY_PURPOSES.deviceProofs]: `${SECRET}:device-proofs`,
    [KEY_PURPOSES.guestMailStop]: `${SECRET}:guest-mail-stop`,
  };

  it("issues under the derived key and accepts the legacy key beside it (none for the secret boxes)", () => {
    for (const purpose of purposes) {
      const ring = keyRing(SECRET, purpose);
      expect(ring.current.equals(deriveKey(SECRET, purpose)), purpose).toBe(true);
      const old = legacy[purpose];
      expect(
        ring.previous.map((key) => key.toString("utf8")),
        purpose,
      ).toEqual(old === undefined ? [] : [old]);
      expect(acceptedKeys(ring)).toEqual([ring.current, ...ring.previous]);
    }
  });
});
