import { hkdfSync } from "node:crypto";

/**
 * Every key the server signs, seals or MACs with is derived from TOKEN_SECRET by deriveKey, one
 * per purpose, and each purpose's label is said here once (docs/accounts.md, "Keys from
 * TOKEN_SECRET"). The label is HKDF's `info`: changing one changes its key, so whatever was made
 * under the old key (a sealed box, a mailed link) stops verifying. The two secret boxes keep the
 * labels they were sealed under before deriveKey existed.
 */
export const KEY_PURPOSES = {
  /** HS256 of the access tokens (adapters: jwt-access-tokens.ts). */
  accessTokens: "access-tokens",
  /** The HMAC emailed codes are stored as (identity/secrets.ts: hashCode). */
  codes: "codes",
  /** The HMAC that derives a rotated refresh token's successor (identity/secrets.ts: successorOf). */
  refreshSuccessors: "refresh-successors",
  /** The HMAC of the proofs pushed to a device (notifications/device-proof.ts). */
  deviceProofs: "device-proofs",
  /** The HMAC that derives an email change's undo token from its id (identity/secrets.ts: emailUndoToken). */
  emailUndo: "email-undo",
  /** The HMAC of guest receipts' unsubscribe tokens (orders/guest-receipts.ts). */
  guestMailStop: "guest-mail-stop",
  /** The secret box of guest capabilities, sealed on the order (orders and the outbox). */
  guestCapabilities: "idempotent-guest-capabilities",
  /** The secret box of stored idempotent answers. */
  idempotentAnswers: "idempotent-answers",
} as const;

export type KeyPurpose = (typeof KEY_PURPOSES)[keyof typeof KEY_PURPOSES];

/** HKDF's salt: fixed, the same for every purpose (the purpose is the `info`). */
const KEY_SALT = "agora";
/** 256-bit keys (AES-256-GCM; HMAC-SHA256 and HS256 take a key of the hash's size). */
const KEY_BYTES = 32;

/** The key of `purpose`: HKDF-SHA256 of the secret, salt "agora", info the purpose's label, 32 bytes. */
export const deriveKey = (secret: string, purpose: KeyPurpose): Buffer =>
  Buffer.from(hkdfSync("sha256", secret, KEY_SALT, purpose, KEY_BYTES));

/**
 * The keys of one purpose: `current` signs and issues; a verifier accepts `current` or any of
 * `previous` (made before the key changed, still held by someone), each compared in constant time.
 */
export type KeyRing = { readonly current: Buffer; readonly previous: readonly Buffer[] };

/** The current key of `purpose` and the ones it still accepts (today: its legacy key, below). */
export const keyRing = (secret: string, purpose: KeyPurpose): KeyRing => {
  const legacy = legacyKeyDerivations[purpose];

  return { current: deriveKey(secret, purpose), previous: legacy ? [Buffer.from(legacy(secret))] : [] };
};

/** Every key a ring accepts, the current one first. */
export const acceptedKeys = (ring: KeyRing): readonly Buffer[] => [ring.current, ...ring.previous];

// ─── Transition: the legacy derivations. Remove this block (and its use in keyRing) as said. ───

/**
 * LEGACY: the keys as they were derived before deriveKey (until 2026-11-29, this change): the
 * raw TOKEN_SECRET for access tokens, `${TOKEN_SECRET}:<suffix>` (its UTF-8 bytes) for the HMACs.
 * Accepted beside the current key, never issued with. An entry can go once nothing made under it
 * can still be presented, counted from when the last process issuing with it stopped (this
 * change's deploy; docs/accounts.md, "Keys from TOKEN_SECRET"):
 * - access tokens, codes, device proofs, refresh successors: short-lived (an access token lives
 *   ACCESS_TOKEN_TTL_SECONDS, at most a day; a code 30 minutes; a device proof 20 minutes; a
 *   rotation is replayed within REFRESH_REUSE_GRACE_SECONDS, at most 5 minutes), so accepting them
 *   for their lifetime is enough: remove in the first release after 2027-01-01, provided this
 *   change has been deployed for a day;
 * - the guest mail-stop key: its links are in mails already sent. Every later mail about the order
 *   carries a link under the current key, so only an old mail's link is at stake: remove in the
 *   first release after 2027-04-01, provided this change has been deployed for 90 days (the life
 *   of the order link beside it in the same mail, GUEST_ACCESS_TTL_MS).
 * The secret boxes were derived this way already: they have no legacy key. Access tokens signed
 * outside the API under the raw secret go with it: apps/api/test/processes.ts (createMember) and
 * bench/src/seed-community.ts (accessToken) sign under deriveKey(…, KEY_PURPOSES.accessTokens) then.
 */
const legacyKeyDerivations: Partial<Record<KeyPurpose, (secret: string) => string>> = {
  [KEY_PURPOSES.accessTokens]: (secret) => secret,
  [KEY_PURPOSES.codes]: (secret) => `${secret}:codes`,
  [KEY_PURPOSES.refreshSuccessors]: (secret) => `${secret}:refresh-successor`,
  [KEY_PURPOSES.deviceProofs]: (secret) => `${secret}:device-proofs`,
  [KEY_PURPOSES.guestMailStop]: (secret) => `${secret}:guest-mail-stop`,
};
