import { createHash, createHmac, randomBytes, randomInt } from "node:crypto";
import type { KeyRing } from "../common/derived-keys";
import type { CodePurpose } from "./identity.types";

/** A 6-digit code from the CSPRNG (leading zeros kept). */
export const generateCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, "0");

/**
 * Codes have a small space (10^6), so a plain hash would fall to an offline search: they are
 * stored as an HMAC under a server key (KEY_PURPOSES.codes), bound to the account and purpose.
 */
export const hashCode = (key: Buffer, userId: string, purpose: CodePurpose, code: string): string =>
  createHmac("sha256", key).update(`${userId}:${purpose}:${code}`).digest("hex");

/** A tried code's hash under the current key, and under each previous key its ring still accepts. */
export type CodeHashes = { current: string; previous: string[] };

/**
 * A tried code's hashes (CodeHashes): a code stored under a previous key (issued before the key
 * changed, and still in its lifetime) matches one of the previous ones.
 */
export const codeHashes = (
  keys: KeyRing,
  userId: string,
  purpose: CodePurpose,
  code: string,
): CodeHashes => ({
  current: hashCode(keys.current, userId, purpose, code),
  previous: keys.previous.map((key) => hashCode(key, userId, purpose, code)),
});

/** An opaque 256-bit refresh token, URL-safe. */
export const generateRefreshToken = (): string => randomBytes(32).toString("base64url");

/** Refresh tokens carry 256 bits of entropy, so an unsalted SHA-256 is enough to store them. */
export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex");

/**
 * The refresh token that rotating `parent` issues: derived from it under the server key, so a
 * replay of `parent` inside the reuse grace gets the very token the first rotation issued (no
 * second branch of the session), and nobody without the key can compute it. 256 bits, URL-safe.
 */
export const successorOf = (key: Buffer, parent: string): string =>
  createHmac("sha256", key).update(`refresh-successor:${parent}`).digest("base64url");

/**
 * The token of an email-change undo link: the HMAC of the undo's id under the key of
 * KEY_PURPOSES.emailUndo, 256 bits, URL-safe. Stored only as hashToken(token);
 * the outbox event that mails it carries the id, and the delivery derives the token again, so no
 * token is at rest in the outbox.
 */
export const emailUndoToken = (key: Buffer, undoId: string): string =>
  createHmac("sha256", key).update(undoId).digest("base64url");
