import { randomBytes } from "node:crypto";
import { PasswordCheckBusyError } from "@agora/domain/identity/identity.errors";
import type { PasswordHasher } from "@agora/domain/identity/identity.ports";
import { type Algorithm, hash, verify } from "@node-rs/argon2";
import { createWorkLimiter, type WorkLimiter, WorkLimiterFullError } from "./work-limiter";

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

export type Argon2Passwords = PasswordHasher & { limiter: WorkLimiter };

/**
 * Every hash and verify (the dummy one too) goes through one limiter: at most `concurrency` run at
 * once (PASSWORD_HASH_CONCURRENCY, so memory stays at concurrency × 19 MiB and libuv threads stay
 * free for DNS and files), at most `queue` wait (PASSWORD_HASH_QUEUE). Past that a request is
 * refused at once with 503 service_unavailable: unauthenticated callers cannot pile up CPU work.
 */
export const createArgon2Passwords = (
  options: Partial<{ memoryCost: number; timeCost: number; parallelism: number }> = {},
  bounds: { concurrency: number; queue: number } = { concurrency: 2, queue: 256 },
): Argon2Passwords => {
  const settings = { ...ARGON2_OPTIONS, ...options };
  const limiter = createWorkLimiter(bounds);
  const limited = async <T>(task: () => Promise<T>): Promise<T> => {
    try {
      return await limiter.run(task);
    } catch (error) {
      if (error instanceof WorkLimiterFullError) {
        throw new PasswordCheckBusyError();
      }
      throw error;
    }
  };
  const safeVerify = async (stored: string, password: string): Promise<boolean> => {
    try {
      return await verify(stored, password);
    } catch {
      return false;
    }
  };
  // A real hash of a random password: verifying against it costs what a real verify costs.
  let dummy: Promise<string> | undefined;

  return {
    limiter,
    hash: (password) => limited(() => hash(password, settings)),
    async verify(stored, password) {
      if (!stored) {
        return false;
      }

      return limited(() => safeVerify(stored, password));
    },
    async verifyDummy(password) {
      dummy ??= hash(randomBytes(16).toString("hex"), settings);
      const target = await dummy;
      await limited(() => safeVerify(target, password));

      return false;
    },
  };
};
