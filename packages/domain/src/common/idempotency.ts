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
  /** Claimed by a request still running (`runClaimed`); never left behind by a finished one. */
  | { type: "pending" }
  | { type: "result"; value: unknown; sealed?: string | undefined }
  | {
      type: "error";
      code: AppError["code"];
      message: string;
      details?: AppError["details"];
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
  /** Stores the outcome of a key its request claimed (a `pending` record). */
  complete(record: IdempotencyRecord): Promise<void>;
  /** Removes a key its request claimed but will not record (an unexpected or transient failure). */
  release(scope: string, route: string, key: string): Promise<void>;
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

const inProgress = () =>
  new AppError("idempotency_in_progress", "A request with this Idempotency-Key is still running.");

/**
 * The answer a live record gives a request with its key: 409 idempotency_conflict for another
 * body, 409 idempotency_in_progress while its first request still runs, else the first outcome
 * (a recorded refusal is thrown again as a ReplayedRefusal).
 */
const replayOf = <T>(
  deps: StoreDeps,
  existing: IdempotencyRecord,
  fingerprint: string,
  secretPart: SecretPart<T> | undefined,
): IdempotentOutcome<T> => {
  if (existing.fingerprint !== fingerprint) {
    throw new IdempotencyConflictError();
  }
  const { outcome } = existing;
  if (outcome.type === "pending") {
    throw inProgress();
  }
  if (outcome.type === "error") {
    throw new ReplayedRefusal(outcome.code, outcome.message, { details: outcome.details });
  }
  const value = decode(outcome.value) as T;
  const result =
    outcome.sealed !== undefined && secretPart
      ? secretPart.put(value, deps.secrets.open(outcome.sealed))
      : value;

  return { result, replayed: true };
};

/** The stored form of a result, its secret part sealed apart. */
const storedResultOf = <T>(
  deps: StoreDeps,
  result: T,
  secretPart: SecretPart<T> | undefined,
): StoredOutcome => {
  const { rest, secret } = secretPart ? secretPart.take(result) : { rest: result, secret: undefined };

  return {
    type: "result",
    value: encode(rest),
    ...(secret === undefined ? {} : { sealed: deps.secrets.seal(secret) }),
  };
};

/**
 * Whether a refusal is recorded under the key (its retry answers the same): a domain refusal, not
 * a transient failure nor a throttle (429: the same request may pass later).
 */
const isRecordable = (error: unknown): error is AppError =>
  error instanceof AppError && !isTransientError(error) && error.code !== "rate_limited";

/** The stored form of a domain refusal (recorded: its retry answers the same). */
const refusalOf = (error: AppError): StoredOutcome => ({
  type: "error",
  code: error.code,
  message: error.message,
  ...(error.details ? { details: error.details } : {}),
});

const recordOf =
  ({ scope, route, key, fingerprint }: IdempotencyRequest, now: Date) =>
  (outcome: StoredOutcome): IdempotencyRecord => ({
    scope,
    route,
    key,
    fingerprint,
    outcome,
    createdAt: now,
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
  });

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
  const record = recordOf({ scope, route, key, fingerprint }, now);
  const storedResult = (result: T): StoredOutcome => storedResultOf(deps, result, secretPart);
  const replayRecorded = async (): Promise<IdempotentOutcome<T> | undefined> => {
    const existing = await deps.idempotency.find(scope, route, key, deps.clock.now());

    return existing ? replayOf(deps, existing, fingerprint, secretPart) : undefined;
  };

  try {
    return { result: await attempt((result) => record(storedResult(result)), now), replayed: false };
  } catch (error) {
    if (error instanceof LostRace) {
      const winner = await replayRecorded();
      if (winner) {
        return winner;
      }
      throw inProgress();
    }
    if (isRecordable(error)) {
      const refusal = refusalOf(error);
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

/** How long a request waits for the first request with its key to finish before answering 409. */
export const CLAIM_WAIT_MS = 2000;
const CLAIM_POLL_MS = 50;

/**
 * Runs `work` at most once per key for an effect that is not one transaction of ours (any
 * creating operation: the HTTP layer wraps its handler). The key is claimed first, by committing
 * a `pending` record; only the request that claimed it runs `work`. Another request with the key
 * waits up to CLAIM_WAIT_MS for the outcome and replays it (or answers 409
 * idempotency_in_progress); another body is 409 idempotency_conflict at once. The outcome is then
 * recorded when `keep` says so (and a domain refusal always); otherwise, and after an unexpected
 * or transient failure, the claim is released so that a retry runs again. A process that dies
 * between the claim and the record leaves the key `pending` until it expires: never a second effect.
 */
export const runClaimed = async <T>(
  deps: StoreDeps,
  request: IdempotencyRequest,
  work: () => Promise<T>,
  options: { keep: (result: T) => boolean; secretPart?: SecretPart<T> | undefined },
): Promise<IdempotentOutcome<T>> => {
  const { scope, route, key, fingerprint } = request;
  const now = deps.clock.now();
  const record = recordOf(request, now);
  if (!(await deps.idempotency.save(record({ type: "pending" }), now))) {
    const waitUntil = Date.now() + CLAIM_WAIT_MS;
    for (;;) {
      const existing = await deps.idempotency.find(scope, route, key, deps.clock.now());
      if (!existing) {
        // Released (its request failed) or expired meanwhile: this request may try once more.
        throw inProgress();
      }
      if (
        existing.outcome.type !== "pending" ||
        existing.fingerprint !== fingerprint ||
        Date.now() >= waitUntil
      ) {
        return replayOf(deps, existing, fingerprint, options.secretPart);
      }
      await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
    }
  }

  let result: T;
  try {
    result = await work();
  } catch (error) {
    if (isRecordable(error)) {
      await deps.idempotency.complete(record(refusalOf(error)));
    } else {
      await deps.idempotency.release(scope, route, key);
    }
    throw error;
  }
  if (options.keep(result)) {
    await deps.idempotency.complete(record(storedResultOf(deps, result, options.secretPart)));
  } else {
    await deps.idempotency.release(scope, route, key);
  }

  return { result, replayed: false };
};
