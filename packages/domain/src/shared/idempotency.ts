import { createHash } from "node:crypto";
import { AppError, isTransientError } from "./app-error";
import type { Clock } from "./clock";
import type { SecretBox } from "./secret-box";
import type { UnitOfWork } from "./unit-of-work";

/** Idempotency keys are kept at least 24 hours (docs/decisions/idempotency.md). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/**
 * A client's Idempotency-Key as a use case sees it: scoped to the caller (user id, or a guest's
 * email) and the request's route (method and concrete path), with a fingerprint of the body.
 */
export type IdempotencyRequest = { scope: string; route: string; key: string; fingerprint: string };

/**
 * What a key records: the use case's result (encoded, with its secret part sealed apart) or the
 * domain error it refused with. Never an HTTP response: the edge presents both the same way.
 */
export type StoredOutcome =
  | { type: "result"; value: unknown; sealed?: string | undefined }
  | {
      type: "error";
      code: AppError["code"];
      message: string;
      details?: AppError["details"];
      status?: number;
    };

export type IdempotencyRecord = {
  scope: string;
  route: string;
  key: string;
  fingerprint: string;
  outcome: StoredOutcome;
  createdAt: Date;
  expiresAt: Date;
};

/** Records of Idempotency-Keys (see the unit of work: `save` runs in the effect's transaction). */
export interface IdempotencyStore {
  /** The live record (unexpired at `now`), or null. */
  find(scope: string, route: string, key: string, now: Date): Promise<IdempotencyRecord | null>;
  /**
   * Inserts the record (an expired one with the same key is replaced). In a transaction that also
   * holds the effect, a concurrent insert of the same key waits for it and then sees it, so false
   * means another request already recorded this key (and the effect here must roll back).
   */
  save(record: IdempotencyRecord, now: Date): Promise<boolean>;
}

/** Part of a result that must be kept encrypted at rest (a guest's access capability). */
export type SecretPart<T> = {
  take(result: T): { rest: T; secret: string | undefined };
  put(result: T, secret: string): T;
};

export type IdempotentOutcome<T> = { result: T; replayed: boolean };

/** Thrown when a key comes back with another body (409). */
export class IdempotencyConflictError extends AppError {
  constructor() {
    super("idempotency_conflict", "This Idempotency-Key was used with a different request.");
  }
}

/** A refusal recorded under a key, thrown again for its replay (the edge marks it replayed). */
export class ReplayedRefusal extends AppError {}

/** Our work ran, but another request recorded the key first: roll back and replay theirs. */
class LostRace extends Error {}

/** SHA-256 over a canonical JSON of the request body (keys sorted), for "same key, other body". */
export const fingerprintOf = (body: unknown): string => {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      return value.map(canonical);
    }
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>)
          .filter(([, entry]) => entry !== undefined)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([name, entry]) => [name, canonical(entry)]),
      );
    }

    return value;
  };

  return createHash("sha256")
    .update(JSON.stringify(canonical(body)))
    .digest("hex");
};

// Results are plain data (strings, numbers, booleans, null, arrays, objects, Dates). JSON keeps
// all of them but Dates, which are tagged on the way in and revived on the way out.
const DATE_TAG = "$date";

const encode = (value: unknown): unknown => {
  if (value instanceof Date) {
    return { [DATE_TAG]: value.toISOString() };
  }
  if (Array.isArray(value)) {
    return value.map(encode);
  }
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, encode(entry)]));
  }

  return value;
};

const decode = (value: unknown): unknown => {
  if (Array.isArray(value)) {
    return value.map(decode);
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 1 && entries[0]?.[0] === DATE_TAG && typeof entries[0][1] === "string") {
      return new Date(entries[0][1]);
    }

    return Object.fromEntries(entries.map(([name, entry]) => [name, decode(entry)]));
  }

  return value;
};

type StoreDeps = {
  idempotency: IdempotencyStore;
  clock: Clock;
  secrets: SecretBox;
};

type Deps<R> = StoreDeps & {
  uow: UnitOfWork<R & { idempotency: IdempotencyStore }>;
};

/**
 * The key's protocol around one attempt at the effect. `attempt` performs the effect and records
 * `recordOf(result)` atomically with it, throwing LostRace (having written nothing) when a live
 * record with the key refuses the insert: the first outcome is then replayed. A domain refusal is
 * recorded (outside the failed attempt) and thrown again on replay.
 */
const withKey = async <T>(
  deps: StoreDeps,
  { scope, route, key, fingerprint }: IdempotencyRequest,
  attempt: (recordOf: (result: T) => IdempotencyRecord, now: Date) => Promise<T>,
  secretPart: SecretPart<T> | undefined,
): Promise<IdempotentOutcome<T>> => {
  const now = deps.clock.now();
  const record = (outcome: StoredOutcome): IdempotencyRecord => ({
    scope,
    route,
    key,
    fingerprint,
    outcome,
    createdAt: now,
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
  });
  const storedResult = (result: T): StoredOutcome => {
    const { rest, secret } = secretPart ? secretPart.take(result) : { rest: result, secret: undefined };

    return {
      type: "result",
      value: encode(rest),
      ...(secret === undefined ? {} : { sealed: deps.secrets.seal(secret) }),
    };
  };
  const replayRecorded = async (): Promise<IdempotentOutcome<T> | undefined> => {
    const existing = await deps.idempotency.find(scope, route, key, deps.clock.now());
    if (!existing) {
      return undefined;
    }
    if (existing.fingerprint !== fingerprint) {
      throw new IdempotencyConflictError();
    }
    const { outcome } = existing;
    if (outcome.type === "error") {
      throw new ReplayedRefusal(outcome.code, outcome.message, {
        details: outcome.details,
        status: outcome.status,
      });
    }
    const value = decode(outcome.value) as T;
    const result =
      outcome.sealed !== undefined && secretPart
        ? secretPart.put(value, deps.secrets.open(outcome.sealed))
        : value;

    return { result, replayed: true };
  };

  try {
    return { result: await attempt((result) => record(storedResult(result)), now), replayed: false };
  } catch (error) {
    if (error instanceof LostRace) {
      const winner = await replayRecorded();
      if (winner) {
        return winner;
      }
      throw new AppError("idempotency_in_progress", "A request with this Idempotency-Key is still running.");
    }
    if (error instanceof AppError && !isTransientError(error)) {
      const refusal: StoredOutcome = {
        type: "error",
        code: error.code,
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
        ...(error.status === undefined ? {} : { status: error.status }),
      };
      // Stored outside the failed attempt; if a concurrent request stored first, it wins.
      if (!(await deps.idempotency.save(record(refusal), now))) {
        const winner = await replayRecorded();
        if (winner) {
          return winner;
        }
      }
    }
    throw error;
  }
};

/**
 * Runs `work` at most once per key (docs/decisions/idempotency.md). Its record is written in the
 * same transaction as the effect, with no lookup first: a fresh key (the common case) goes straight
 * to its transaction, and a key seen before is found when its record refuses the insert; that work
 * rolls back and the first outcome is replayed. The same key with another body is 409
 * idempotency_conflict. A domain refusal is recorded too (outside the failed transaction) and
 * thrown again on replay as a `ReplayedRefusal`; an unexpected or transient failure is not, so a
 * retry runs again. Without a key, `work` simply runs in a unit of work.
 */
export const runIdempotent = async <T, R>(
  deps: Deps<R>,
  request: IdempotencyRequest | undefined,
  work: (tx: R) => Promise<T>,
  secretPart?: SecretPart<T>,
): Promise<IdempotentOutcome<T>> => {
  if (!request) {
    return { result: await deps.uow.run(work), replayed: false };
  }

  return withKey(
    deps,
    request,
    (recordOf, now) =>
      deps.uow.run(async (tx) => {
        const result = await work(tx);
        if (!(await tx.idempotency.save(recordOf(result), now))) {
          throw new LostRace();
        }

        return result;
      }),
    secretPart,
  );
};

/**
 * What a single-write effect decided: its result, and the one atomic write that makes it happen
 * together with the key's record (undefined without a key). The write resolves false, having
 * written nothing, when a live record with the key refused its insert.
 */
export type SingleWrite<T> = {
  result: T;
  write: (record: IdempotencyRecord | undefined) => Promise<boolean>;
};

/**
 * `runIdempotent` for an effect that reads, decides, and then writes everything in one atomic
 * statement, the key's record included: no transaction is held open across round trips. `decide`
 * only reads (it may refuse); the same rules apply to replays, conflicts and recorded refusals.
 */
export const runIdempotentWrite = async <T>(
  deps: StoreDeps,
  request: IdempotencyRequest | undefined,
  decide: () => Promise<SingleWrite<T>>,
  secretPart?: SecretPart<T>,
): Promise<IdempotentOutcome<T>> => {
  if (!request) {
    const { result, write } = await decide();
    await write(undefined);

    return { result, replayed: false };
  }

  return withKey(
    deps,
    request,
    async (recordOf) => {
      const { result, write } = await decide();
      if (!(await write(recordOf(result)))) {
        throw new LostRace();
      }

      return result;
    },
    secretPart,
  );
};
