import { timingSafeEqual } from "node:crypto";
import { isUuid } from "../common/ids";
import { codesLocked } from "./events/codes-locked";
import { CODE_POLICY, type IdentityMailDeps } from "./identity.deps";
import type { IdentityRepositories } from "./identity.ports";
import type { CodePurpose } from "./identity.types";
import { type CodeHashes, generateCode, hashCode } from "./secrets";

/** Rate-limit keys of one account's codes of one purpose (neither is touched by a new code). */
const failuresKey = (userId: string, purpose: CodePurpose) => `codes:failures:${purpose}:${userId}`;
const sentKey = (userId: string, purpose: CodePurpose) => `codes:sent:${purpose}:${userId}`;
/** The window of both counters. */
const CODE_WINDOW_SECONDS = CODE_POLICY.failureWindowSeconds;

/**
 * The cooldown after the `sent`-th code of a purpose within a day: 60 s after each of the first
 * three, then doubling (120 s after the fourth, 240 s after the fifth, …) up to an hour. A mistyped address or a slow inbox costs a minute;
 * someone requesting codes in a loop, to guess them or to flood an inbox, is slowed down fast.
 */
export const cooldownAfter = (sent: number): number =>
  Math.min(
    CODE_POLICY.maxCooldownSeconds,
    CODE_POLICY.cooldownSeconds * 2 ** Math.max(0, sent - CODE_POLICY.cooldownFlatSends),
  );

export type IssuedCode = { code: string; codeHash: string };
export type CodeRefusal = { refused: "locked" | "cooldown"; retryAfterSeconds: number };

/**
 * Stores a fresh code of `purpose` for the account, replacing the previous one, unless the purpose
 * is locked (CODE_POLICY.failureCap wrong codes in the window) or the previous code is still in its
 * cooldown. The cooldown check and the write are one statement, so of two parallel requests one
 * stores. Nothing is mailed here, and no transaction is held.
 */
export const issueCode = async (
  { codes, rateLimits, clock, codeKey }: Pick<IdentityMailDeps, "codes" | "rateLimits" | "clock" | "codeKey">,
  userId: string,
  purpose: CodePurpose,
): Promise<IssuedCode | CodeRefusal | "no_account"> => {
  const now = clock.now();
  // Both counters have a one-day window: one round trip reads them.
  const [failures = { hits: 0, retryAfterSeconds: 0 }, sent = { hits: 0, retryAfterSeconds: 0 }] =
    await rateLimits.peek([failuresKey(userId, purpose), sentKey(userId, purpose)], CODE_WINDOW_SECONDS, now);
  if (failures.hits >= CODE_POLICY.failureCap) {
    return { refused: "locked", retryAfterSeconds: failures.retryAfterSeconds };
  }
  const cooldown = cooldownAfter(sent.hits);
  const code = generateCode();
  const codeHash = hashCode(codeKey, userId, purpose, code);
  const stored = await codes.putIfCooledDown(
    userId,
    purpose,
    {
      codeHash,
      sentAt: now,
      expiresAt: new Date(now.getTime() + CODE_POLICY[purpose].ttlMinutes * 60_000),
    },
    new Date(now.getTime() - cooldown * 1000),
  );
  if (stored === "no_account") {
    return stored;
  }
  if (stored === "cooling_down") {
    const previous = await codes.find(userId, purpose);
    const elapsed = previous ? (now.getTime() - previous.sentAt.getTime()) / 1000 : 0;

    return { refused: "cooldown", retryAfterSeconds: cooldown - elapsed };
  }

  return { code, codeHash };
};

/** Counts a mailed code towards the growing cooldown (only once the provider took the mail). */
export const recordCodeSent = async (
  { rateLimits, clock }: Pick<IdentityMailDeps, "rateLimits" | "clock">,
  userId: string,
  purpose: CodePurpose,
): Promise<void> => {
  await rateLimits.hit(sentKey(userId, purpose), Number.MAX_SAFE_INTEGER, CODE_WINDOW_SECONDS, clock.now());
};

/**
 * Of a tried code's hashes, the one the live code is tried with: the current key's, unless the
 * codes' ring still accepts previous keys (a transition: common/derived-keys.ts) and the stored
 * code is the tried code's hash under one of them (issued before the key changed). That costs one
 * read, on every path alike (an unknown address's too), so its timing tells nothing; the
 * comparisons are constant-time. A code replaced in between is tried as usual (and misses).
 */
const triedHash = async (
  tx: IdentityRepositories,
  userId: string,
  purpose: CodePurpose,
  hashes: CodeHashes,
): Promise<string> => {
  // A user id that is no UUID names no code (the repository's attempt finds none): no read.
  if (hashes.previous.length === 0 || !isUuid(userId)) {
    return hashes.current;
  }
  const stored = Buffer.from((await tx.codes.find(userId, purpose))?.codeHash ?? "");
  let tried = hashes.current;
  for (const candidate of hashes.previous) {
    const hash = Buffer.from(candidate);
    if (hash.length === stored.length && timingSafeEqual(hash, stored)) {
      tried = candidate;
    }
  }

  return tried;
};

/**
 * One try of a code, inside the caller's transaction. A wrong code counts towards the account's
 * long-term cap for the purpose; the try that reaches the cap spends the live code (a parallel try
 * waiting on its row then finds none) and, once, queues a notice mail to the owner. While the cap
 * holds no code of the purpose is issued, so every try answers like a wrong code.
 */
export const attemptCode = async (
  tx: IdentityRepositories,
  input: {
    userId: string;
    purpose: CodePurpose;
    /** The tried code's hashes (secrets.ts: codeHashes). */
    codeHashes: CodeHashes;
    now: Date;
    /**
     * Counted when no live code met the try (an unknown address, or no code pending): the same
     * one counter write a wrong code costs, so both paths take the same time. It limits nothing.
     */
    unmatchedKey?: string;
  },
): Promise<"accepted" | "rejected" | "none"> => {
  const { userId, purpose, now } = input;
  const codeHash = await triedHash(tx, userId, purpose, input.codeHashes);
  const outcome = await tx.codes.attempt(userId, purpose, codeHash, now, CODE_POLICY.maxAttempts);
  if (outcome === "none" && input.unmatchedKey) {
    await tx.rateLimits.hit(input.unmatchedKey, Number.MAX_SAFE_INTEGER, CODE_WINDOW_SECONDS, now);
  }
  if (outcome !== "rejected") {
    return outcome;
  }
  const failures = await tx.rateLimits.hit(
    failuresKey(userId, purpose),
    CODE_POLICY.failureCap,
    CODE_WINDOW_SECONDS,
    now,
  );
  if (failures.hits >= CODE_POLICY.failureCap) {
    await tx.codes.spend(userId, purpose, CODE_POLICY.maxAttempts);
  }
  if (failures.hits === CODE_POLICY.failureCap) {
    const lockedUntil = new Date(now.getTime() + failures.retryAfterSeconds * 1000);
    await tx.outbox.append(
      codesLocked.event(userId, { user_id: userId, purpose, locked_until: lockedUntil.toISOString() }),
      now,
    );
  }

  return "rejected";
};
