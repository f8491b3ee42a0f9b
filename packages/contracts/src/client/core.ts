import type { z } from "zod";
import type { ErrorCode, FieldIssue } from "../errors";
import { identityOperations, type SessionDto } from "../identity";
import { type Operation, takesIdempotencyKey } from "../operation";

/**
 * The transport behind `createAgoraClient`, and the types of its methods: each method calls one
 * operation of the contracts (`@agora/contracts/<area>`), the very entries the server validates
 * with and documents, so a method's argument and result types are `z.input`/`z.output` of those
 * schemas and nothing generated can drift from them.
 */

type HttpMethod = Operation["method"];

/** One string argument per `{name}` of the path, in order. */
type ParamArgs<P extends string> = P extends `${string}{${string}}${infer Rest}`
  ? [id: string, ...ParamArgs<Rest>]
  : [];

type BodyArg<O> = O extends { body: infer B extends z.ZodType } ? [body: z.input<B>] : [];

/** The query argument: optional unless the operation refuses a request without some of it. */
type QueryArg<O> = O extends { query: infer Q extends z.ZodType }
  ? object extends z.input<Q>
    ? [query?: Partial<z.output<Q>>]
    : [query: z.output<Q>]
  : [];

/**
 * Per-call options: an abort signal, extra headers, (on creations) an explicit idempotency key,
 * and this call's retry budget.
 */
export type CallOptions = {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** On routes that take `Idempotency-Key`: use this key instead of a generated one. */
  idempotencyKey?: string;
  /** This call's retries instead of the client's `retries` (0: send once). */
  retries?: number;
};

/** A method's arguments: the path parameters in order, then the body, the query and call options. */
export type RouteArgs<O extends Operation> = [
  ...ParamArgs<O["path"]>,
  ...BodyArg<O>,
  ...QueryArg<O>,
  options?: CallOptions,
];

/** A list route's result: the page and its `meta`. */
export type Page<D, M> = { data: D; meta: M };

type ResultOf<R> = R extends { text: z.ZodType }
  ? string
  : R extends { data: infer D extends z.ZodType }
    ? R extends { meta: infer M extends z.ZodType }
      ? Page<z.output<D>, z.output<M>>
      : z.output<D>
    : never;

/** What a method resolves to: the `data` of any of its success responses (with `meta`, a page). */
export type RouteResult<O extends Operation> = ResultOf<O["responses"][keyof O["responses"]]>;

export type RouteMethod<O extends Operation> = (...args: RouteArgs<O>) => Promise<RouteResult<O>>;

/** The client's methods, by name: each names one operation. */
export type RouteTable = { readonly [name: string]: Operation | RouteTable };

/** The client methods of a route table, grouped as the table is. */
export type Methods<T extends RouteTable> = {
  readonly [K in keyof T]: T[K] extends Operation
    ? RouteMethod<T[K]>
    : T[K] extends RouteTable
      ? Methods<T[K]>
      : never;
};

/** The codes an `AgoraError` carries: the service's stable codes plus three of the client's own. */
export type AgoraErrorCode = ErrorCode | "network_error" | "invalid_response" | "upload_failed";

/**
 * Every failure the client reports: the service's error envelope (`code`, `status`, `requestId`,
 * `details`), a network failure after the retries (`network_error`, status 0), a response that
 * is not the documented envelope (`invalid_response`), or the object store's refusal of an upload's
 * bytes (`upload_failed`, with the store's status: an expired URL, other bytes than declared).
 */
export class AgoraError extends Error {
  readonly code: AgoraErrorCode;
  readonly status: number;
  readonly requestId: string | null;
  readonly details: FieldIssue[] | undefined;

  constructor(
    init: {
      code: AgoraErrorCode;
      status: number;
      message: string;
      requestId?: string | null;
      details?: FieldIssue[] | undefined;
    },
    options?: ErrorOptions,
  ) {
    super(init.message, options);
    this.name = "AgoraError";
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId ?? null;
    this.details = init.details;
  }
}

type MaybePromise<T> = T | Promise<T>;

export type AgoraClientOptions = {
  /** The service's address, e.g. `https://api.agora.example` (the operations' paths follow it). */
  baseUrl: string;
  /** The access token to send; by default the one of the session the client keeps. */
  getAccessToken?: () => MaybePromise<string | null | undefined>;
  /** The refresh token used once on a 401; by default the one of the session the client keeps. */
  getRefreshToken?: () => MaybePromise<string | null | undefined>;
  /** Called with each new session (sign-in, refresh) and with `null` on logout: store it here. */
  onSession?: (session: SessionDto | null) => MaybePromise<void>;
  /** Called when a request stays 401 after the one refresh: send the user back to sign-in. */
  onUnauthorized?: (error: AgoraError) => void;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /**
   * Retries of a GET, a creation with an `Idempotency-Key` or a repeatable write (a confirmation)
   * after a network error, a 502/503/504, a 429 or a 409 `idempotency_in_progress` (default 2; 0
   * turns retries off); an upload's PUT to the object store follows the same rules. Any other
   * request is sent once: a write without a key is never repeated.
   */
  retries?: number;
  /**
   * The backoff's base: the n-th retry waits between half and all of `retryDelayMs * 2^n` (random
   * jitter, so clients that failed together do not retry together), at most 10 s; a
   * `Retry-After` the service sent is waited instead (default 250 ms).
   */
  retryDelayMs?: number;
  /** The longest `Retry-After` honoured; a longer one is not waited for: the call fails (default 30 s). */
  maxRetryAfterMs?: number;
  /** Check every response against its contract schema (`invalid_response` on a mismatch). */
  validateResponses?: boolean;
  /** Headers sent with every request (e.g. `X-Request-Id` from a tracing context). */
  headers?: Record<string, string>;
};

/** A random UUID, from `crypto.randomUUID` where the platform has it (React Native may not). */
export const newIdempotencyKey = (): string => {
  const random = globalThis.crypto;
  if (typeof random?.randomUUID === "function") {
    return random.randomUUID();
  }
  const bytes = new Uint8Array(16);
  if (typeof random?.getRandomValues === "function") {
    random.getRandomValues(bytes);
  } else {
    for (let index = 0; index < bytes.length; index += 1) {
      bytes[index] = Math.floor(Math.random() * 256);
    }
  }
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The longest backoff between two attempts without a `Retry-After`. */
const MAX_BACKOFF_MS = 10_000;

/** Statuses after which the same request may succeed: overload, a gateway's lost upstream, throttling. */
const retryableStatuses = new Set([429, 502, 503, 504]);

/** `Retry-After` in milliseconds (delta-seconds or an HTTP date), or undefined. */
const retryAfterMs = (value: string | null): number | undefined => {
  if (value === null || value.trim() === "") {
    return undefined;
  }
  if (/^\d+$/.test(value.trim())) {
    return Number(value.trim()) * 1000;
  }
  const at = Date.parse(value);

  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
};

/**
 * Body fields by which the service recognises a retried creation (a chat message's
 * `client_message_id`): the client fills one the caller left out, once per call, so every retry of
 * the call carries the same id and a send cut by the network is stored once.
 */
const clientIdFields = ["client_message_id"] as const;

const withClientId = (operation: Operation, body: unknown): unknown => {
  const shape = (operation.body as { shape?: Record<string, unknown> } | undefined)?.shape;
  if (!shape || body === null || typeof body !== "object" || Array.isArray(body)) {
    return body;
  }
  const missing = clientIdFields.filter(
    (field) => field in shape && (body as Record<string, unknown>)[field] === undefined,
  );

  return missing.length === 0
    ? body
    : { ...body, ...Object.fromEntries(missing.map((field) => [field, newIdempotencyKey()])) };
};

const countParams = (path: string) => path.match(/\{[^}]+\}/g)?.length ?? 0;

/** A request presigned by the service (an upload ticket): sent exactly as given, with the body. */
export type PresignedPut = {
  url: string;
  method: "PUT";
  headers: Record<string, string>;
  body: NonNullable<RequestInit["body"]>;
};

/** The transport: one place that adds tokens and keys, unwraps the envelope, refreshes and retries. */
export type Transport = {
  call(operation: Operation, args: unknown[]): Promise<unknown>;
  /**
   * Sends a presigned request to the object store (no token: the signature is the permission),
   * retried as a GET is (the same bytes to the same key); `upload_failed` when the store refuses.
   */
  sendPresigned(request: PresignedPut, options?: Pick<CallOptions, "signal" | "retries">): Promise<void>;
  /** The service address, for the realtime helper. */
  readonly baseUrl: string;
  accessToken(): Promise<string | null>;
  /** The one refresh (shared with concurrent 401s); the new access token, or null. */
  refresh(): Promise<string | null>;
};

type Attempt = {
  status: number;
  payload: unknown;
  text: string;
  requestId: string | null;
  retryAfter: string | null;
};

export const createTransport = (options: AgoraClientOptions): Transport => {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const retries = options.retries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 250;
  let session: SessionDto | null = null;
  let refreshing: Promise<string | null> | null = null;

  const accessToken = async () =>
    (options.getAccessToken ? await options.getAccessToken() : session?.access_token) ?? null;
  const refreshToken = async () =>
    (options.getRefreshToken ? await options.getRefreshToken() : session?.refresh_token) ?? null;

  const keep = async (next: SessionDto | null) => {
    session = next;
    await options.onSession?.(next);
  };

  const send = async (
    method: HttpMethod,
    url: string,
    headers: Record<string, string>,
    body: RequestInit["body"] | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Attempt> => {
    const doFetch = options.fetch ?? globalThis.fetch;
    const response = await doFetch(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(signal ? { signal } : {}),
    });
    const text = await response.text();
    let payload: unknown = null;
    if ((response.headers.get("content-type") ?? "").includes("json") && text) {
      try {
        payload = JSON.parse(text);
      } catch {
        payload = null;
      }
    }

    return {
      status: response.status,
      payload,
      text,
      requestId: response.headers.get("x-request-id"),
      retryAfter: response.headers.get("retry-after"),
    };
  };

  const maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
  /** The n-th retry's backoff: between half and all of `retryDelayMs * 2^n`, at most MAX_BACKOFF_MS. */
  const backoff = (attempt: number) => {
    const ceiling = Math.min(MAX_BACKOFF_MS, retryDelayMs * 2 ** attempt);

    return ceiling / 2 + Math.random() * (ceiling / 2);
  };
  /** How long to wait before retrying this answer, or undefined when it is final. */
  const waitBefore = (result: Attempt, attempt: number): number | undefined => {
    const inProgress =
      result.status === 409 &&
      (result.payload as { error?: { code?: string } } | null)?.error?.code === "idempotency_in_progress";
    if (!retryableStatuses.has(result.status) && !inProgress) {
      return undefined;
    }
    const asked = retryAfterMs(result.retryAfter);
    if (asked === undefined) {
      return backoff(attempt);
    }

    return asked <= maxRetryAfterMs ? asked : undefined;
  };

  /**
   * Sends, and when `retries` > 0 (a GET, or a creation carrying its `Idempotency-Key`: the same
   * headers, so the same key) retries a network error, a 502/503/504, a 429 or a 409
   * `idempotency_in_progress`, waiting the service's `Retry-After` or a jittered backoff.
   */
  const sendWithRetries = async (retries: number, ...request: Parameters<typeof send>): Promise<Attempt> => {
    for (let attempt = 0; ; attempt += 1) {
      const canRetry = attempt < retries;
      try {
        const result = await send(...request);
        const wait = canRetry ? waitBefore(result, attempt) : undefined;
        if (wait !== undefined) {
          await sleep(wait);
          continue;
        }

        return result;
      } catch (error) {
        const aborted = request[4]?.aborted === true;
        if (aborted) {
          throw error;
        }
        if (!canRetry) {
          throw new AgoraError(
            { code: "network_error", status: 0, message: "The service could not be reached." },
            { cause: error },
          );
        }
        await sleep(backoff(attempt));
      }
    }
  };

  const errorOf = (attempt: Attempt): AgoraError => {
    const envelope = attempt.payload as {
      success?: boolean;
      error?: { code?: ErrorCode; message?: string; details?: FieldIssue[] };
      request_id?: string;
    } | null;
    if (envelope?.success === false && envelope.error?.code) {
      return new AgoraError({
        code: envelope.error.code,
        status: attempt.status,
        message: envelope.error.message ?? envelope.error.code,
        requestId: envelope.request_id ?? attempt.requestId,
        details: envelope.error.details,
      });
    }

    return new AgoraError({
      code: "invalid_response",
      status: attempt.status,
      message: `Unexpected response (HTTP ${attempt.status}).`,
      requestId: attempt.requestId,
    });
  };

  /** One refresh at a time: concurrent 401s share it. Resolves to the new access token, or null. */
  const refresh = (): Promise<string | null> => {
    refreshing ??= (async () => {
      try {
        const token = await refreshToken();
        if (!token) {
          return null;
        }
        const { method, path } = identityOperations.authRefresh;
        const attempt = await send(
          method,
          `${baseUrl}${path}`,
          { ...options.headers, "content-type": "application/json" },
          JSON.stringify({ refresh_token: token }),
          undefined,
        );
        const envelope = attempt.payload as { success?: boolean; data?: SessionDto } | null;
        if (attempt.status !== 200 || envelope?.success !== true || !envelope.data) {
          return null;
        }
        await keep(envelope.data);

        return envelope.data.access_token;
      } catch {
        return null;
      } finally {
        refreshing = null;
      }
    })();

    return refreshing;
  };

  const validate = (schema: z.ZodType, value: unknown, attempt: Attempt, what: string) => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      throw new AgoraError({
        code: "invalid_response",
        status: attempt.status,
        message: `The response ${what} does not match the contract.`,
        requestId: attempt.requestId,
        details: parsed.error.issues.map((issue) => ({
          path: issue.path.map(String).join("."),
          message: issue.message,
        })),
      });
    }
  };

  const call = async (operation: Operation, args: unknown[]): Promise<unknown> => {
    const paramCount = countParams(operation.path);
    let index = paramCount;
    const params = args.slice(0, paramCount) as string[];
    const body = withClientId(operation, operation.body ? args[index++] : undefined);
    const query = operation.query ? (args[index++] as Record<string, unknown> | undefined) : undefined;
    const callOptions = (args[index] as CallOptions | undefined) ?? {};

    let position = 0;
    const path = operation.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(params[position++] ?? ""));
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) {
        search.append(name, String(value));
      }
    }
    const url = `${baseUrl}${path}${search.size > 0 ? `?${search}` : ""}`;

    const headers: Record<string, string> = { ...options.headers, ...callOptions.headers };
    if (body !== undefined) {
      headers["content-type"] = "application/json";
    }
    const idempotent = takesIdempotencyKey(operation);
    if (idempotent) {
      headers["idempotency-key"] = callOptions.idempotencyKey ?? newIdempotencyKey();
    }
    let token = operation.auth === "public" ? null : await accessToken();
    // A write without a key is sent once, unless repeating it cannot repeat its effect.
    const budget =
      operation.method === "GET" || idempotent || operation.repeatable ? (callOptions.retries ?? retries) : 0;
    const payload = body === undefined ? undefined : JSON.stringify(body);

    const attemptWith = (bearer: string | null) =>
      sendWithRetries(
        budget,
        operation.method,
        url,
        bearer ? { ...headers, authorization: `Bearer ${bearer}` } : headers,
        payload,
        callOptions.signal,
      );

    let attempt = await attemptWith(token);
    if (attempt.status === 401 && token) {
      // On 401: refresh once, retry once, then back to sign-in.
      token = await refresh();
      if (token) {
        attempt = await attemptWith(token);
      }
      if (attempt.status === 401) {
        const error = errorOf(attempt);
        options.onUnauthorized?.(error);
        throw error;
      }
    } else if (attempt.status === 401 && operation.auth === "bearer") {
      const error = errorOf(attempt);
      options.onUnauthorized?.(error);
      throw error;
    }

    if (attempt.status >= 400) {
      throw errorOf(attempt);
    }
    const responses = Object.values(operation.responses);
    if (responses.some((response) => "text" in response)) {
      return attempt.text;
    }
    const envelope = attempt.payload as { success?: boolean; data?: unknown; meta?: unknown } | null;
    if (envelope?.success !== true) {
      throw errorOf(attempt);
    }
    if (options.validateResponses) {
      const documented = operation.responses[attempt.status];
      if (!documented || !("data" in documented)) {
        throw new AgoraError({
          code: "invalid_response",
          status: attempt.status,
          message: `HTTP ${attempt.status} is not a documented answer of ${operation.operationId}.`,
          requestId: attempt.requestId,
        });
      }
      validate(documented.data, envelope.data, attempt, "data");
      if (documented.meta) {
        validate(documented.meta, envelope.meta, attempt, "meta");
      }
    }
    if (operation.session === "open") {
      await keep(envelope.data as SessionDto);
    } else if (operation.session === "close") {
      await keep(null);
    }

    return responses.some((response) => "meta" in response)
      ? { data: envelope.data, meta: envelope.meta }
      : envelope.data;
  };

  const sendPresigned: Transport["sendPresigned"] = async (request, callOptions = {}) => {
    const attempt = await sendWithRetries(
      callOptions.retries ?? retries,
      request.method,
      request.url,
      request.headers,
      request.body,
      callOptions.signal,
    );
    if (attempt.status < 200 || attempt.status >= 300) {
      throw new AgoraError({
        code: "upload_failed",
        status: attempt.status,
        message: `The object store refused the upload (HTTP ${attempt.status}).`,
      });
    }
  };

  return { call, sendPresigned, baseUrl, accessToken, refresh };
};

/** Binds every route of a table to the transport, keeping the table's grouping. */
export const bindRoutes = <T extends RouteTable>(transport: Transport, table: T): Methods<T> =>
  Object.fromEntries(
    Object.entries(table).map(([name, entry]) => [
      name,
      "method" in entry && typeof entry.method === "string"
        ? (...args: unknown[]) => transport.call(entry as Operation, args)
        : bindRoutes(transport, entry as RouteTable),
    ]),
  ) as Methods<T>;
