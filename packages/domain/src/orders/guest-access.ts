import { createHash, randomBytes } from "node:crypto";

/** A new guest capability: 32 random bytes as 64 hex characters. */
export const generateGuestToken = (): string => randomBytes(32).toString("hex");

/** Only the capability's SHA-256 is stored (it carries 256 bits, so no salt is needed). */
export const hashGuestToken = (token: string): string => createHash("sha256").update(token).digest("hex");
