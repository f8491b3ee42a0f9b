import { createHash, createHmac, randomBytes, randomInt } from "node:crypto";
import type { CodePurpose } from "./identity.types";

/** A 6-digit code from the CSPRNG (leading zeros kept). */
export const generateCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, "0");

/**
 * Codes have a small space (10^6), so a plain hash would fall to an offline search: they are
 * stored as an HMAC under a server key, bound to the account and purpose.
 */
export const hashCode = (key: string, userId: string, purpose: CodePurpose, code: string): string =>
  createHmac("sha256", key).update(`${userId}:${purpose}:${code}`).digest("hex");

/** The HMAC key of emailed codes, derived from the server secret (TOKEN_SECRET). */
export const codeKeyFor = (serverSecret: string): string => `${serverSecret}:codes`;

/** An opaque 256-bit refresh token, URL-safe. */
export const generateRefreshToken = (): string => randomBytes(32).toString("base64url");

/** Refresh tokens carry 256 bits of entropy, so an unsalted SHA-256 is enough to store them. */
export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex");

/** The HMAC key that derives a refresh token's successor, from the server secret (TOKEN_SECRET). */
export const refreshKeyFor = (serverSecret: string): string => `${serverSecret}:refresh-successor`;

/**
 * The refresh token that rotating `parent` issues: derived from it under the server key, so a
 * replay of `parent` inside the reuse grace gets the very token the first rotation issued (no
 * second branch of the session), and nobody without the key can compute it. 256 bits, URL-safe.
 */
export const successorOf = (key: string, parent: string): string =>
  createHmac("sha256", key).update(`refresh-successor:${parent}`).digest("base64url");
