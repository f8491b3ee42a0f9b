import { randomBytes } from "node:crypto";
import type { PasswordHasher } from "@agora/domain/identity/identity.ports";
import { type Algorithm, hash, verify } from "@node-rs/argon2";

// Algorithm is a const enum (not importable as a value under verbatimModuleSyntax): 2 = Argon2id.
const ARGON2ID = 2 as Algorithm;

/**
 * argon2id at OWASP's minimum recommendation (19 MiB, 2 passes, 1 lane). Hashing runs on the libuv
 * thread pool, off the event loop.
 */
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const createArgon2Passwords = (options: Partial<typeof ARGON2_OPTIONS> = {}): PasswordHasher => {
  const settings = { ...ARGON2_OPTIONS, ...options };
  // A real hash of a random password: verifying against it costs what a real verify costs.
  let dummy: Promise<string> | undefined;

  return {
    hash: (password) => hash(password, settings),
    async verify(stored, password) {
      if (!stored) {
        return false;
      }
      try {
        return await verify(stored, password);
      } catch {
        return false;
      }
    },
    async verifyDummy(password) {
      dummy ??= hash(randomBytes(16).toString("hex"), settings);
      await verify(await dummy, password).catch(() => false);

      return false;
    },
  };
};
