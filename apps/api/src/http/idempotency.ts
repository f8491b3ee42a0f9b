import type { Operation } from "@agora/contracts/operation";
import type { Clock } from "@agora/domain/common/clock";
import {
  fingerprintOf,
  type IdempotencyRequest,
  type IdempotencyStore,
  type IdempotentOutcome,
  runClaimed,
  type SecretPart,
} from "@agora/domain/common/idempotency";
import type { SecretBox } from "@agora/domain/common/secret-box";
import type { Context, Next } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./app-env";
import { actorOf } from "./middleware/auth";
import { ok, respond } from "./respond";

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

/** What a keyed request's handler answered, as its key records it (sealed: it may hold personal data). */
type Answer = { status: number; body: Record<string, unknown> };

const sealedAnswer: SecretPart<Answer> = {
  take: (answer) => ({ rest: { status: answer.status, body: {} }, secret: JSON.stringify(answer.body) }),
  put: (answer, secret) => ({ status: answer.status, body: JSON.parse(secret) as Record<string, unknown> }),
};

/** What the generic key protocol needs: the records, the clock, and the box that seals answers. */
export type IdempotencyDeps = { idempotency: IdempotencyStore; clock: Clock; secrets: SecretBox };

type Handler = (c: Context<AppEnv>, next: Next) => Response | Promise<Response>;

/**
 * The one `Idempotency-Key` protocol of the creating operations whose use case does not record the
 * key itself (docs/retries.md): `runClaimed` around the handler, scoped to the caller and the
 * concrete path, fingerprinted by the body. The first answer below 500 is recorded (status and
 * envelope, sealed) and replayed with `Idempotent-Replayed: true` and the replay's own request id;
 * a thrown domain refusal is recorded and thrown again on replay. Without a key the handler runs
 * as it is.
 */
export const idempotentHandler =
  (operation: Operation, handler: Handler, deps: IdempotencyDeps): Handler =>
  async (c, next) => {
    const key = c.req.header("idempotency-key");
    if (key === undefined) {
      return handler(c, next);
    }
    const body = operation.body ? (c.req.valid as (target: "json") => unknown)("json") : null;
    let response: Response | undefined;
    const outcome = await runClaimed(
      deps,
      idempotencyRequest(c, actorOf(c).userId, key, body),
      async (): Promise<Answer> => {
        response = await handler(c, next);

        return {
          status: response.status,
          body: (await response.clone().json()) as Record<string, unknown>,
        };
      },
      { keep: (answer) => answer.status < 500, secretPart: sealedAnswer },
    );
    if (!outcome.replayed && response) {
      return response;
    }

    return respond(
      c,
      { ...outcome.result.body, request_id: c.env.requestId },
      outcome.result.status as ContentfulStatusCode,
      { ...REPLAYED_HEADERS },
    );
  };
