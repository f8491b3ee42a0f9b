import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { deriveKey, type KeyPurpose } from "./derived-keys";

/**
 * Authenticated encryption (AES-256-GCM) for small secrets kept at rest, under the server secret's
 * key for one `purpose` (deriveKey: so keys for different uses never coincide).
 */
export const createSecretBox = (serverSecret: string, purpose: KeyPurpose) => {
  const key = deriveKey(serverSecret, purpose);

  return {
    seal(plaintext: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);

      return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url")).join(".");
    },
    open(box: string): string {
      const [iv = "", tag = "", sealed = ""] = box.split(".");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));

      return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString(
        "utf8",
      );
    },
  };
};
export type SecretBox = ReturnType<typeof createSecretBox>;
