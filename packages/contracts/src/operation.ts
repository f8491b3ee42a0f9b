import { z } from "zod";
import { idempotencyKeyHeaderSchema } from "./common";
import type { ErrorCode } from "./errors";

/**
 * What an operation of the Agora API is. Each one is declared once, in its area's contract file
 * (`orders.ts`, `orders.admin.ts`, …), and everything else is derived from that entry: the server
 * attaches one handler to it and generates the OpenAPI document from it, the typed client calls it,
 * and the tests list the API's operations from `operations.ts`. Plain zod: no server framework.
 */

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * How an operation authenticates: `public` takes no credentials, `bearer` needs an access token
 * (`Authorization: Bearer <token>`, else 401), `optional` takes one when given and serves guests
 * without one (a token that is sent must be valid).
 */
export type Auth = "public" | "bearer" | "optional";

/**
 * An error code the operation can answer, documented under its status; `[status, code]` for the
 * one code whose status depends on the operation (`invalid_code`: 401 at sign-in, 422 elsewhere).
 */
export type DocumentedError = ErrorCode | readonly [status: 401 | 422, code: ErrorCode];

/** A response header an answer may carry (documented; its value is an integer of seconds or a count). */
type ResponseHeader = { readonly description: string };

/** A success response in the JSON envelope: its `data`, and `meta` for a page (null otherwise). */
export type JsonResponse = {
  readonly description: string;
  readonly data: z.ZodType;
  readonly meta?: z.ZodType;
  /** Headers it may carry besides the ones every answer has (`Retry-After` while a state moves on). */
  readonly headers?: { readonly [name: string]: ResponseHeader };
};

/** A success response that is text (CSV, Prometheus) instead of the envelope. */
export type TextResponse = {
  readonly description: string;
  readonly mediaType: `text/${string}`;
  readonly text: z.ZodType;
};

/** A success response without a body (the 101 of a WebSocket upgrade). */
export type EmptyResponse = { readonly description: string };

export type OperationResponse = JsonResponse | TextResponse | EmptyResponse;

export type Operation = {
  /** What generated SDKs name the method. Public: an id never changes once published. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** The full path, with `{name}` path parameters. */
  readonly path: `/${string}`;
  readonly auth: Auth;
  readonly tags: readonly string[];
  readonly summary: string;
  /** The path parameters, one field per `{name}` of the path. */
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  /** The documented request headers (`Idempotency-Key`, `X-Guest-Access-Token`). */
  readonly headers?: z.ZodObject;
  /** The JSON request body (required when declared). */
  readonly body?: z.ZodType;
  /** The success responses, by status. */
  readonly responses: { readonly [status: number]: OperationResponse };
  /** The error codes it can answer besides the ones every operation shares (see the server). */
  readonly errors?: readonly DocumentedError[];
  /**
   * What the operation creates, counted against the caller's per-hour write limit of that kind
   * (`moments`, `chat_messages`, …; the server's configuration names the kinds): the server answers
   * 429 `rate_limited` past it, and every answer carries `RateLimit-Limit`, `RateLimit-Remaining`
   * and `RateLimit-Reset`.
   */
  readonly writeLimit?: string;
  /**
   * Sending it again has the effect of sending it once (a confirmation): the typed client retries it
   * as it retries a GET, though it is a write without an `Idempotency-Key`.
   */
  readonly repeatable?: true;
  /** The response opens a session (sign-in, refresh) or ends the caller's (logout, deletion). */
  readonly session?: "open" | "close";
  /** One typed entry per value of the `{kind}` path parameter (the admin collections). */
  readonly kinds?: { readonly [kind: string]: object };
  /**
   * The operation creates something and takes an `Idempotency-Key` (docs/retries.md): the same key
   * and body replay the first answer, another body is 409. `defineOperations` adds the header (the
   * one `IdempotencyKey` parameter of the document when optional) and the 409 codes.
   */
  readonly idempotencyKey?: "optional" | "required";
};

/** An operation as its area declares it: the key it is declared under is its `operationId`. */
export type OperationDefinition = Omit<Operation, "operationId">;

/** The codes every operation taking an `Idempotency-Key` can answer (409). */
export const idempotencyErrors = ["idempotency_conflict", "idempotency_in_progress"] as const;

/** The header an operation with `idempotencyKey` takes, optional or required. */
type IdempotencyHeaders<M> = z.ZodObject<{
  "idempotency-key": M extends "required"
    ? typeof idempotencyKeyHeaderSchema
    : z.ZodOptional<typeof idempotencyKeyHeaderSchema>;
}>;

/** A declared operation: its `operationId`, and the header its `idempotencyKey` flag adds. */
type Defined<D, K extends string> = (D extends { readonly idempotencyKey: infer M }
  ? Omit<D, "headers"> & { readonly headers: IdempotencyHeaders<M> }
  : D) & { readonly operationId: K };

const withIdempotencyKey = (definition: OperationDefinition): OperationDefinition => {
  const mode = definition.idempotencyKey;
  if (mode === undefined) {
    return definition;
  }
  if (definition.method !== "POST") {
    throw new Error("contracts: only a creating POST takes an Idempotency-Key");
  }
  const header = mode === "required" ? idempotencyKeyHeaderSchema : idempotencyKeyHeaderSchema.optional();
  const errors = definition.errors ?? [];

  return {
    ...definition,
    headers: definition.headers
      ? definition.headers.extend({ "idempotency-key": header })
      : z.object({ "idempotency-key": header }),
    errors: [...errors, ...idempotencyErrors.filter((code) => !errors.includes(code))],
  };
};

/**
 * Declares an area's operations, in the order the OpenAPI document lists them; each key is the
 * operation's `operationId`. An operation flagged `idempotencyKey` gets the header and its 409s.
 */
export const defineOperations = <const T extends { readonly [operationId: string]: OperationDefinition }>(
  definitions: T,
): { readonly [K in keyof T & string]: Defined<T[K], K> } =>
  Object.fromEntries(
    Object.entries(definitions).map(([operationId, definition]) => [
      operationId,
      { ...withIdempotencyKey(definition), operationId },
    ]),
  ) as { readonly [K in keyof T & string]: Defined<T[K], K> };

/** Whether the operation takes an `Idempotency-Key` header (its retries then replay, never repeat). */
export const takesIdempotencyKey = (operation: Operation): boolean => operation.idempotencyKey !== undefined;

/**
 * One kind of `GET /admin/{kind}`: the statuses its `status` filter takes, its item, what `q`
 * matches and (when not administrators only) who may list it.
 */
export type CollectionKind = {
  readonly status: z.ZodType<string>;
  readonly item: z.ZodType;
  readonly searches: string;
  readonly readers?: string;
};

/** One kind of `PATCH /admin/{kind}/{id}/status`: the body it takes and what it answers. */
export type StatusKind = {
  readonly body: z.ZodType<{ status: string }>;
  readonly data: z.ZodType;
};

/**
 * The union of one part of each kind (`anyOf`, in the kinds' order): what the `{kind}` operation
 * documents, since the kind is only known from the path.
 */
export const unionOfKinds = <K extends { readonly [kind: string]: object }, S extends z.ZodType>(
  kinds: K,
  part: (kind: K[keyof K]) => S,
): z.ZodType<z.output<S>, z.input<S>> =>
  z.union(Object.values(kinds).map((kind) => part(kind as K[keyof K])) as unknown as [S, S]);

/** The data of an admin collection page: an array of one kind's items. */
export type KindPage<K extends { readonly [kind: string]: CollectionKind }> = {
  [N in keyof K]: z.output<K[N]["item"]>[];
}[keyof K];

/** The page data of `GET /admin/{kind}`: the items of any one kind (`anyOf`, in the kinds' order). */
export const kindPageSchema = <const K extends { readonly [kind: string]: CollectionKind }>(
  kinds: K,
): z.ZodType<KindPage<K>> =>
  z.union(
    Object.values(kinds).map((kind) => z.array(kind.item)) as unknown as [z.ZodType, z.ZodType],
  ) as z.ZodType<KindPage<K>>;
