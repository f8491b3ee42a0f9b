import {
  fingerprintOf,
  type IdempotencyRequest,
  type IdempotentOutcome,
} from "@agora/domain/shared/idempotency";
import type { Context } from "hono";
import type { AppEnv } from "./app-env";
import { ok } from "./respond";

/** Sent with every replayed answer of an Idempotency-Key, success or refusal. */
export const REPLAYED_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "idempotent-replayed": "true",
});

/**
 * The Idempotency-Key of a create as use cases take it: scoped to `scope` (the caller) and to this
 * request's method and concrete path, with a fingerprint of the body. Undefined without a key.
 */
export function idempotencyRequest(
  c: Context<AppEnv>,
  scope: string,
  key: string,
  body: unknown,
): IdempotencyRequest;
export function idempotencyRequest(
  c: Context<AppEnv>,
  scope: string,
  key: string | undefined,
  body: unknown,
): IdempotencyRequest | undefined;
export function idempotencyRequest(
  c: Context<AppEnv>,
  scope: string,
  key: string | undefined,
  body: unknown,
): IdempotencyRequest | undefined {
  return key === undefined
    ? undefined
    : { scope, route: `${c.req.method} ${c.req.path}`, key, fingerprint: fingerprintOf(body) };
}

/**
 * The answer of an idempotent create: 201 with the presented result, the first time and on every
 * replay (which adds `Idempotent-Replayed: true`). A replayed refusal is answered by the error
 * handler, with the same header.
 */
export const created = <T, D>(c: Context<AppEnv>, outcome: IdempotentOutcome<T>, present: (result: T) => D) =>
  ok(c, present(outcome.result), {
    status: 201,
    ...(outcome.replayed ? { headers: { ...REPLAYED_HEADERS } } : {}),
  });
