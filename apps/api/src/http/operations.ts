import { idempotencyKeyHeaderSchema } from "@agora/contracts/common";
import { successEnvelope } from "@agora/contracts/envelope";
import type { Operation, OperationResponse } from "@agora/contracts/operation";
import type { Role } from "@agora/domain/common/actor";
import { RateLimitedError, UnauthorizedError } from "@agora/domain/common/app-error";
import type { Clock } from "@agora/domain/common/clock";
import { addressBucket, type RateLimiter, type RateLimitResult } from "@agora/domain/common/rate-limit";
import {
  processCountedLimitKinds,
  WRITE_LIMIT_WINDOW_SECONDS,
  type WriteLimitKind,
  writeLimitKey,
  writeLimitKinds,
} from "@agora/domain/common/write-limits";
import { authenticateCounting } from "@agora/domain/identity/authenticate";
import { createRoute, type OpenAPIHono, type RouteHandler, type RouteHook } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler, Next } from "hono";
import type { z } from "zod";
import type { AppEnv, AppVariables } from "./app-env";
import { rateLimitHeadersOf } from "./errors";
import { type IdempotencyDeps, idempotentHandler } from "./idempotency";
import {
  type AuthDeps,
  bearerToken,
  clientIp,
  optionalBearer,
  requireAuth,
  requireRoles,
} from "./middleware/auth";
import { body, errors, json } from "./openapi";
import { isComplete } from "./respond";

/**
 * The adapter between the contracts' operations (`@agora/contracts/<area>`: method, path, auth,
 * schemas, documented errors, operationId) and Hono: `handle` attaches a handler to an operation,
 * `mountOperations` turns each into a zod-openapi route (validation, the OpenAPI document) with
 * its authentication, in the order of the contracts' table.
 */

type JsonContent<S> = { "application/json": { schema: S } };

type Envelope<D extends z.ZodType, M extends z.ZodType> = ReturnType<typeof successEnvelope<D, M>>;

type ResponseOf<R> = R extends { data: infer D extends z.ZodType }
  ? {
      description: string;
      content: JsonContent<Envelope<D, R extends { meta: infer M extends z.ZodType } ? M : z.ZodNull>>;
    }
  : R extends { mediaType: infer T extends string; text: infer S extends z.ZodType }
    ? { description: string; content: { [K in T]: { schema: S } } }
    : { description: string };

type RequestOf<O> = (O extends { params: infer P extends z.ZodType } ? { params: P } : object) &
  (O extends { query: infer Q extends z.ZodType } ? { query: Q } : object) &
  (O extends { headers: infer H extends z.ZodType } ? { headers: H } : object) &
  (O extends { body: infer B extends z.ZodType }
    ? { body: { required: true; content: JsonContent<B> } }
    : object);

/** The zod-openapi route of an operation: what types its handler's input and answers. */
type RouteOf<O extends Operation> = {
  method: Lowercase<O["method"]>;
  path: O["path"];
  request: RequestOf<O>;
  responses: { [S in keyof O["responses"]]: ResponseOf<O["responses"][S]> };
};

/** A handler of `O`: `c.req.valid(…)` is typed by its schemas, its answer by its success responses. */
export type OperationHandler<O extends Operation> = RouteHandler<RouteOf<O>, AppEnv>;

export type HandleOptions<O extends Operation> = {
  /** 403 unless the authenticated caller holds one of these roles (checked before the input). */
  roles?: readonly Role[];
  /** Replaces the validation hook (422 `validation_failed`) for this operation. */
  hook?: RouteHook<RouteOf<O>, AppEnv>;
  /**
   * The use case records the operation's `Idempotency-Key` itself, in the transaction of its effect
   * (orders, payments); otherwise the adapter wraps the handler in the generic key protocol.
   */
  keyedByUseCase?: true;
};

/** An operation and the handler the API attaches to it. */
export type Handled = {
  readonly operation: Operation;
  readonly handler: unknown;
  readonly roles?: readonly Role[] | undefined;
  readonly hook?: unknown;
  readonly keyedByUseCase?: true | undefined;
};

/** Attaches `handler` to `operation`: validate → one use case → presenter → envelope. */
export const handle = <O extends Operation>(
  operation: O,
  handler: OperationHandler<O>,
  options: HandleOptions<O> = {},
): Handled => ({
  operation,
  handler,
  roles: options.roles,
  hook: options.hook,
  keyedByUseCase: options.keyedByUseCase,
});

/** The options of a create whose use case records its `Idempotency-Key` in its own transaction. */
export const keyedByUseCase = { keyedByUseCase: true } as const;

/** Long OpenAPI descriptions, by operationId (the contracts carry the summaries). */
export type Descriptions = Readonly<Record<string, string>>;

/** The descriptions of some operations (`satisfies DescriptionsOf<typeof ordersOperations>`: no stray id). */
export type DescriptionsOf<G extends { readonly [operationId: string]: Operation }> = {
  readonly [K in keyof G]?: string;
};

export type MountOptions = {
  identity: AuthDeps;
  /** The records of `Idempotency-Key`s, for the operations that take one (docs/retries.md). */
  idempotency: IdempotencyDeps;
  descriptions: Descriptions;
  /**
   * Operations whose document entry lists `security` right after `tags`, as they were first
   * published. Key order means nothing to OpenAPI; it is kept so the served document stays the
   * same byte for byte.
   */
  securityAfterTags?: ReadonlySet<string>;
  /** The per-hour write limits of the operations that declare `writeLimit` (none without). */
  writeLimits?: WriteLimitOptions;
};

export type WriteLimitOptions = {
  rateLimits: RateLimiter;
  /** The limiter of the kinds counted in the process (processCountedLimitKinds). */
  processCounted: RateLimiter;
  clock: Clock;
  perHour: Readonly<Record<WriteLimitKind, number>>;
  trustProxy: boolean;
};

/** Tells the error handler the statuses this operation documents for some codes (see AppVariables). */
const withErrorStatuses =
  (statuses: AppVariables["errorStatuses"]): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    c.set("errorStatuses", statuses);
    await next();
  };

const isWriteLimitKind = (kind: string): kind is WriteLimitKind =>
  (writeLimitKinds as readonly string[]).includes(kind);

/** The documented headers of a write-limited operation's answers. */
const rateLimitHeaders = {
  "RateLimit-Limit": {
    description: "Requests of this kind allowed per window (one hour) to the caller.",
    schema: { type: "integer", minimum: 1 } as const,
  },
  "RateLimit-Remaining": {
    description: "Requests of this kind left to the caller in the current window.",
    schema: { type: "integer", minimum: 0 } as const,
  },
  "RateLimit-Reset": {
    description: "Seconds until the current window ends.",
    schema: { type: "integer", minimum: 0 } as const,
  },
};

/**
 * Applies a counted hit of the write limit of `kind` (at most `max` per window): past it, 429
 * `rate_limited` with `Retry-After`; otherwise the rest runs and the RateLimit headers go on its
 * answer.
 */
const applyWriteLimit = async (
  c: Context<AppEnv>,
  next: Next,
  kind: WriteLimitKind,
  max: number,
  result: RateLimitResult,
) => {
  const limit = { limit: max, remaining: max - result.hits, resetSeconds: result.retryAfterSeconds };
  const headers = rateLimitHeadersOf(limit);
  if (!result.allowed) {
    throw new RateLimitedError(
      result.retryAfterSeconds,
      `Too many ${kind.replaceAll("_", " ")} this hour; try again later.`,
      limit,
    );
  }
  // Answers are built whole by respond(), which adds these (an answer refused by a limit of its own,
  // the pending-upload quota, passes that limit's headers, which win). Touching a built answer's
  // headers instead makes the Node adapter materialize a full Response
  // (docs/decisions/counting-limits.md).
  c.set("rateLimitHeaders", headers);
  await next();
  if (!isComplete(c.res)) {
    const own = c.res.status === 429 && c.res.headers.has("RateLimit-Limit");
    for (const [name, value] of Object.entries(headers)) {
      if (!own) {
        c.res.headers.set(name, value);
      }
    }
  }
};

/**
 * Counts the request against the caller's write limit of `kind` (the account; the client address,
 * IPv6 per /64, for a guest), sets the RateLimit headers, and answers 429 `rate_limited` with
 * `Retry-After` past the limit. Runs after authentication, before the input is validated.
 */
const writeLimit =
  (kind: WriteLimitKind, options: WriteLimitOptions): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const max = options.perHour[kind];
    if (max <= 0) {
      await next();

      return;
    }
    const userId = c.get("actor")?.userId ?? c.get("claims")?.userId;
    const who = userId ? `user:${userId}` : `ip:${addressBucket(clientIp(c, options.trustProxy))}`;
    const limiter = processCountedLimitKinds.has(kind) ? options.processCounted : options.rateLimits;
    const result = await limiter.hit(
      writeLimitKey(kind, who),
      max,
      WRITE_LIMIT_WINDOW_SECONDS,
      options.clock.now(),
    );
    await applyWriteLimit(c, next, kind, max, result);
  };

/**
 * requireAuth and writeLimit of a bearer operation in one round trip: the session check and the
 * account's hit are one statement (authenticateCounting), so a write-limited member write costs no
 * extra query. The same rules: a 401 counts nothing, the count comes before the input is validated.
 */
const requireAuthCounting =
  (kind: WriteLimitKind, max: number, identity: AuthDeps): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const token = bearerToken(c);
    if (token === undefined) {
      throw new UnauthorizedError();
    }
    const { actor, limit } = await authenticateCounting(identity, token, {
      key: (userId) => writeLimitKey(kind, `user:${userId}`),
      limit: max,
      windowSeconds: WRITE_LIMIT_WINDOW_SECONDS,
    });
    c.set("actor", { ...actor, requestId: c.env.requestId });
    await applyWriteLimit(c, next, kind, max, limit);
  };

const bearerSecurity = [{ bearerAuth: [] }];

const responseOf = ({ description, ...response }: OperationResponse) => {
  if ("data" in response) {
    const headers = Object.entries(response.headers ?? {}).map(([name, header]) => [
      name,
      { description: header.description, schema: { type: "integer", minimum: 0 } as const },
    ]);

    return {
      ...json(successEnvelope(response.data, response.meta), description),
      ...(headers.length > 0 ? { headers: Object.fromEntries(headers) } : {}),
    };
  }
  if ("text" in response) {
    return { description, content: { [response.mediaType]: { schema: response.text } } };
  }

  return { description };
};

/**
 * The document's one `IdempotencyKey` parameter component (optional), which every operation taking
 * an optional key refers to; a required key (payments) stays inline, since a reference cannot
 * change `required`.
 */
const idempotencyKeyParameter = (app: OpenAPIHono<AppEnv>) =>
  app.openAPIRegistry.registerParameter(
    "IdempotencyKey",
    idempotencyKeyHeaderSchema.optional().openapi({ param: { name: "idempotency-key", in: "header" } }),
  );

const requestOf = (operation: Operation, keyParameter: z.ZodType) => {
  const headers =
    operation.headers && operation.idempotencyKey === "optional"
      ? operation.headers.extend({ "idempotency-key": keyParameter })
      : operation.headers;
  const request = {
    ...(operation.params ? { params: operation.params } : {}),
    ...(operation.query ? { query: operation.query } : {}),
    ...(headers ? { headers } : {}),
    ...(operation.body ? body(operation.body) : {}),
  };

  return Object.keys(request).length > 0 ? { request } : {};
};

/**
 * The route of one operation. Security comes from `auth`, here and nowhere else: `bearer` is
 * `requireAuth` and `[{ bearerAuth: [] }]`, `optional` is `optionalBearer` and `[{}, { bearerAuth:
 * [] }]`, `public` has no middleware and `security: []` (stated, not implied). The keys come in the
 * order the document has always listed them: `security` before `operationId`, except on public
 * operations, and right after `tags` where `securityAfterTags` says so.
 */
const routeOf = (
  operation: Operation,
  entry: Handled,
  description: string | undefined,
  auth: { bearer: MiddlewareHandler<AppEnv>; optional: MiddlewareHandler<AppEnv>; identity: AuthDeps },
  securityAfterTags: boolean,
  keyParameter: z.ZodType,
  writeLimits: WriteLimitOptions | undefined,
) => {
  const { operationId, tags: tagList, summary } = operation;
  const tags = [...tagList];
  const described = description === undefined ? {} : { description };
  const security =
    operation.auth === "public" ? [] : operation.auth === "bearer" ? bearerSecurity : [{}, ...bearerSecurity];
  const head =
    operation.auth === "public"
      ? { tags, summary, ...described, operationId, security }
      : securityAfterTags
        ? { tags, security, summary, ...described, operationId }
        : { tags, summary, ...described, security, operationId };
  if (operation.auth === "public" && entry.roles) {
    throw new Error(`operations: ${operationId} is public and cannot require roles`);
  }
  const kind = operation.writeLimit;
  if (kind !== undefined && !isWriteLimitKind(kind)) {
    throw new Error(`operations: ${operationId} names an unknown write limit ${kind}`);
  }
  const max = kind !== undefined && writeLimits ? writeLimits.perHour[kind] : 0;
  // A member write without roles to check: its session check and its hit are one statement.
  const counting = kind !== undefined && max > 0 && operation.auth === "bearer" && !entry.roles;
  const limited = kind !== undefined && writeLimits && !counting ? [writeLimit(kind, writeLimits)] : [];
  // Codes this operation documents under another status than their own (`[401, "invalid_code"]`).
  const statuses = Object.fromEntries(
    (operation.errors ?? []).flatMap((error) => (typeof error === "string" ? [] : [[error[1], error[0]]])),
  );
  const middleware = [
    ...(Object.keys(statuses).length === 0 ? [] : [withErrorStatuses(statuses)]),
    ...(operation.auth === "public"
      ? []
      : counting
        ? [requireAuthCounting(kind, max, auth.identity)]
        : [
            operation.auth === "bearer" ? auth.bearer : auth.optional,
            ...(entry.roles ? [requireRoles(...entry.roles)] : []),
          ]),
    ...limited,
  ];

  return createRoute({
    method: operation.method.toLowerCase() as Lowercase<Operation["method"]>,
    path: operation.path,
    ...head,
    ...(middleware.length > 0 ? { middleware } : {}),
    ...requestOf(operation, keyParameter),
    responses: {
      ...Object.fromEntries(
        Object.entries(operation.responses).map(([status, response]) => [
          status,
          kind === undefined
            ? responseOf(response)
            : (({ headers, ...rest }) => ({ ...rest, headers: { ...rateLimitHeaders, ...headers } }))(
                responseOf(response) as ReturnType<typeof responseOf> & { headers?: object },
              ),
        ]),
      ),
      ...errors(...(operation.errors ?? []), ...(kind === undefined ? [] : (["rate_limited"] as const))),
    },
  });
};

/**
 * Registers each operation of `table` with its handler, in the table's order: the order the
 * OpenAPI document lists them and routes match in (`/admin/overview` before `/admin/{kind}`).
 * Refuses to build when an operation has no handler or two, a handler's operation is not in the
 * table, or a description names no operation of it.
 */
export const mountOperations = (
  app: OpenAPIHono<AppEnv>,
  table: readonly Operation[],
  handled: readonly Handled[],
  options: MountOptions,
): void => {
  const known = new Set(table);
  const byId = new Map<string, Handled>();
  for (const entry of handled) {
    const { operationId } = entry.operation;
    if (!known.has(entry.operation)) {
      throw new Error(`operations: ${operationId} is not an operation of the contracts' table`);
    }
    if (byId.has(operationId)) {
      throw new Error(`operations: ${operationId} has two handlers`);
    }
    byId.set(operationId, entry);
  }
  const ids = new Set(table.map((operation) => operation.operationId));
  const stray = Object.keys(options.descriptions).filter((id) => !ids.has(id));
  if (stray.length > 0) {
    throw new Error(`operations: descriptions of no operation: ${stray.join(", ")}`);
  }

  const auth = {
    bearer: requireAuth(options.identity),
    optional: optionalBearer(options.identity),
    identity: options.identity,
  };
  const keyParameter = idempotencyKeyParameter(app);
  for (const operation of table) {
    const entry = byId.get(operation.operationId);
    if (!entry) {
      throw new Error(
        `operations: no handler for ${operation.operationId} (${operation.method} ${operation.path})`,
      );
    }
    const route = routeOf(
      operation,
      entry,
      Object.hasOwn(options.descriptions, operation.operationId)
        ? options.descriptions[operation.operationId]
        : undefined,
      auth,
      options.securityAfterTags?.has(operation.operationId) ?? false,
      keyParameter,
      options.writeLimits,
    );
    if (entry.keyedByUseCase && operation.idempotencyKey === undefined) {
      throw new Error(`operations: ${operation.operationId} takes no Idempotency-Key`);
    }
    if (operation.idempotencyKey !== undefined && !entry.keyedByUseCase && operation.auth !== "bearer") {
      throw new Error(
        `operations: ${operation.operationId} scopes its Idempotency-Key by a caller it may lack`,
      );
    }
    const handler =
      operation.idempotencyKey === undefined || entry.keyedByUseCase
        ? entry.handler
        : idempotentHandler(
            operation,
            entry.handler as Parameters<typeof idempotentHandler>[1],
            options.idempotency,
          );
    // Each handler was typed against its operation's route by `handle`.
    app.openapi(route, handler as never, entry.hook as never);
  }
};
