import { createHash } from "node:crypto";
import { AppError } from "../shared/app-error";
import { IDEMPOTENCY_TTL_MS, type OrdersDeps, type OrdersRepositories } from "./orders.deps";
import type { StoredResponse } from "./orders.ports";

/** An Idempotency-Key as the use case sees it: scoped to the caller and the route. */
export type IdempotencyRequest = { scope: string; route: string; key: string; fingerprint: string };

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

/** Thrown when a key comes back with another body (409). */
export class IdempotencyConflictError extends AppError {
  constructor() {
    super("idempotency_conflict", "This Idempotency-Key was used with a different request.");
  }
}

/** Our work ran, but another request recorded the key first: roll back and replay theirs. */
class LostRace extends Error {}

export type IdempotentOutcome<T> =
  | { kind: "fresh"; result: T; response: StoredResponse }
  | { kind: "replay"; response: StoredResponse };

type Responders<T> = {
  /** The response to store for a result (status, body; a secret is stored encrypted). */
  toResponse: (result: T) => StoredResponse;
  /** The response to store for a refusal, or undefined when it must not be stored (5xx). */
  errorResponse: (error: unknown) => StoredResponse | undefined;
};

const replayOf = (deps: Pick<OrdersDeps, "secrets">, response: StoredResponse): StoredResponse => ({
  status: response.status,
  body: response.body,
  secret: response.secret === undefined ? undefined : deps.secrets.open(response.secret),
});

/**
 * Runs `work` at most once per key (CONTRACT.md, idempotency): the key's record is written in the
 * same transaction as the effect, so two requests with one key cannot both commit an effect — the
 * later one waits on the key, rolls its own work back and replays the first response. The same key
 * with another body is 409 idempotency_conflict. A refusal (4xx) is stored and replayed too; an
 * unexpected failure (5xx) is not, so a retry runs again. Without a key, `work` simply runs.
 */
export const runIdempotent = async <T>(
  deps: Pick<OrdersDeps, "uow" | "repos" | "clock" | "secrets">,
  request: IdempotencyRequest | undefined,
  work: (tx: OrdersRepositories) => Promise<T>,
  responders: Responders<T>,
): Promise<IdempotentOutcome<T>> => {
  if (!request) {
    const result = await deps.uow.run(work);

    return { kind: "fresh", result, response: responders.toResponse(result) };
  }
  const { scope, route, key, fingerprint } = request;
  const now = deps.clock.now();
  const replayIfRecorded = async (): Promise<IdempotentOutcome<T> | undefined> => {
    const existing = await deps.repos.idempotency.find(scope, route, key, deps.clock.now());
    if (!existing) {
      return undefined;
    }
    if (existing.fingerprint !== fingerprint) {
      throw new IdempotencyConflictError();
    }

    return { kind: "replay", response: replayOf(deps, existing.response) };
  };

  // No lookup first: a fresh key (the common case) goes straight to its transaction, and a key seen
  // before is found when its record refuses the insert; that work then rolls back and is replayed.
  const record = (response: StoredResponse) => ({
    scope,
    route,
    key,
    fingerprint,
    response: {
      status: response.status,
      body: response.body,
      secret: response.secret === undefined ? undefined : deps.secrets.seal(response.secret),
    },
    createdAt: now,
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
  });

  try {
    return await deps.uow.run(async (tx) => {
      const result = await work(tx);
      const response = responders.toResponse(result);
      if (!(await tx.idempotency.save(record(response), now))) {
        throw new LostRace();
      }

      return { kind: "fresh" as const, result, response };
    });
  } catch (error) {
    if (error instanceof LostRace) {
      const winner = await replayIfRecorded();
      if (winner) {
        return winner;
      }
      throw new AppError("idempotency_in_progress", "A request with this Idempotency-Key is still running.");
    }
    const refusal = responders.errorResponse(error);
    if (refusal) {
      // Stored outside the failed transaction; if a concurrent request stored first, it wins.
      const saved = await deps.repos.idempotency.save(record(refusal), now);
      if (!saved) {
        const winner = await replayIfRecorded();
        if (winner) {
          return winner;
        }
      }
    }
    throw error;
  }
};
