// Requests generated from the served OpenAPI document: for every documented operation, values the
// schema allows (at and beyond its bounds) and values it does not, malformed and oversized bodies,
// odd unicode, bad ids and headers, with and without a valid bearer token.
import fc from "fast-check";

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
};

type Parameter = {
  in: "path" | "query" | "header" | "cookie";
  name: string;
  required?: boolean;
  schema?: JsonSchema;
};

export type Operation = {
  method: string;
  /** OpenAPI template, e.g. `/api/v1/orders/{id}/payments`. */
  path: string;
  parameters: Parameter[];
  body: JsonSchema | undefined;
  secured: boolean;
  /** The documented error statuses, each with the `error.code` values it lists. */
  errorCodes: Record<string, string[]>;
};

export type OpenApiDocument = {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

export type FuzzRequest = {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** Which generator made it (for the report). */
  kind: string;
};

/** What the generator may mix in for realism: real ids, tokens and values from the fixtures. */
export type FuzzContext = {
  /** Ids that exist (users, listings, items, orders, payments…), to reach past the 404s. */
  ids: string[];
  /** Access tokens of signed-in users of each role; a token may have been revoked by the run. */
  tokens: string[];
  /** Values worth trying for body fields of these names (refresh tokens, emails, usernames…). */
  fieldValues: Record<string, string[]>;
  /** Body limit: bodies over it must be refused with 413. */
  maxBodyBytes: number;
};

const METHODS = ["get", "post", "put", "patch", "delete"];

/** Every documented operation of the document, with its parameters and JSON body schema. */
export const operationsOf = (doc: OpenApiDocument): Operation[] => {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!METHODS.includes(method)) {
        continue;
      }
      const op = raw as {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        security?: unknown[];
        responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
      };
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.["application/json"]?.schema,
        secured: (op.security ?? []).length > 0,
        errorCodes: Object.fromEntries(
          Object.entries(op.responses ?? {})
            .filter(([status]) => Number(status) >= 400)
            .map(([status, response]) => [
              status,
              (response.content?.["application/json"]?.schema?.allOf?.[1]?.properties?.error?.properties?.code
                ?.enum ?? []) as string[],
            ]),
        ),
      });
    }
  }

  return operations;
};

// Strings that have broken servers: NUL and other controls, lone surrogates, bidi overrides, BOMs,
// huge and combining text, injection-shaped text, numbers and keywords as strings.
const nastyStrings = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u0000".repeat(64),
  "\ud800",
  "\udfff",
  "a\udc00b",
  "💩",
  "👩‍👩‍👧‍👦",
  "\u202e\u0644\u0627",
  "\ufeff",
  "\u200b",
  "\u2028\u2029",
  "\r\n\t\u000b\u000c",
  "Z\u0351\u0362\u0367\u0300\u0301\u0302\u0303",
  "İıß",
  "０１２３",
  "' OR 1=1 --",
  "'; DROP TABLE users; --",
  "%00",
  "%",
  "../../../etc/passwd",
  "<script>alert(1)</script>",
  "$" + "{jndi:ldap://x}",
  "{{7*7}}",
  "\\",
  '"',
  "null",
  "undefined",
  "NaN",
  "-0",
  "1e309",
  "0x1F",
  "true",
  "[]",
  "{}",
  "x".repeat(5_000),
  "é".repeat(3_000),
  "0000-01-01T00:00:00Z",
  "9999-12-31T23:59:59Z",
  "1970-01-01T00:00:00+14:00",
  "2024-02-30T00:00:00Z",
  "-000001-01-01T00:00:00Z",
  "+275760-09-13T00:00:00Z",
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
];

const oddString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...nastyStrings), weight: 4 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }), weight: 1 },
  { arbitrary: fc.string({ maxLength: 300 }), weight: 1 },
);

const boundaryNumbers = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.5,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 63,
  -(2 ** 63),
  1e21,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
];

const oddNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(...boundaryNumbers),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A value of another JSON type than the schema asks for (or anything at all). */
const wrongTyped: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  oddNumber,
  oddString,
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
);

const resolve = (doc: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema => {
  let current = schema ?? {};
  for (let hops = 0; current.$ref && hops < 10; hops += 1) {
    const name = current.$ref.split("/").pop() ?? "";
    current = doc.components?.schemas?.[name] ?? {};
  }

  return current;
};

const typeOf = (schema: JsonSchema): string | undefined => {
  if (Array.isArray(schema.type)) {
    return schema.type.find((type) => type !== "null") ?? "null";
  }

  return schema.type ?? (schema.properties ? "object" : undefined);
};

/** Boundaries of a string schema: at and just past minLength and maxLength. */
const stringsAtBounds = (schema: JsonSchema): string[] => {
  const lengths = new Set<number>();
  for (const bound of [schema.minLength, schema.maxLength]) {
    if (bound !== undefined) {
      lengths.add(Math.max(0, bound - 1));
      lengths.add(bound);
      lengths.add(bound + 1);
    }
  }

  return [...lengths].filter((length) => length <= 20_000).map((length) => "a".repeat(length));
};

const numbersAtBounds = (schema: JsonSchema): number[] => {
  const values: number[] = [];
  for (const bound of [schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum]) {
    if (bound !== undefined) {
      values.push(bound - 1, bound, bound + 1);
    }
  }

  return values;
};

const ISO_MIN = new Date("1900-01-01T00:00:00Z");
const ISO_MAX = new Date("2200-01-01T00:00:00Z");

/** Values the schema allows (mostly), reaching its bounds; `hints` are real values by field name. */
export const validValue = (
  doc: OpenApiDocument,
  raw: JsonSchema | undefined,
  context: FuzzContext,
  name = "",
  depth = 0,
): fc.Arbitrary<unknown> => {
  const schema = resolve(doc, raw);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants && variants.length > 0) {
    return fc.oneof(...variants.map((variant) => validValue(doc, variant, context, name, depth)));
  }
  if (schema.allOf && schema.allOf.length > 0) {
    return validValue(
      doc,
      Object.assign({}, ...schema.allOf.map((part) => resolve(doc, part))),
      context,
      name,
      depth,
    );
  }
  if (schema.enum && schema.enum.length > 0) {
    return fc.constantFrom(...schema.enum);
  }
  if (schema.const !== undefined) {
    return fc.constant(schema.const);
  }
  const hints = context.fieldValues[name] ?? [];
  const withHints = (arbitrary: fc.Arbitrary<unknown>) =>
    hints.length > 0 ? fc.oneof(arbitrary, fc.constantFrom(...hints)) : arbitrary;
  switch (typeOf(schema)) {
    case "string": {
      const minLength = schema.minLength ?? 0;
      const maxLength = Math.min(schema.maxLength ?? 60, 200);
      let base: fc.Arbitrary<string>;
      if (schema.format === "email" || name === "email") {
        base = fc.emailAddress();
      } else if (schema.format === "date-time") {
        base = fc.date({ min: ISO_MIN, max: ISO_MAX, noInvalidDate: true }).map((date) => date.toISOString());
      } else if (schema.format === "uuid") {
        base = fc.uuid();
      } else if (schema.pattern) {
        // The length bounds the schema states, not the generator's default cap: a pattern may need
        // more than 60 characters (a 64-hex token), and a filter nothing passes never ends.
        const patternMax = Math.min(schema.maxLength ?? 200, 200);
        base = fc
          .stringMatching(new RegExp(schema.pattern), { size: "small" })
          .filter((value) => value.length >= minLength && value.length <= patternMax);
      } else {
        base = fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength, 40)) });
      }
      const bounds = stringsAtBounds(schema);
      const ids = /(^|_)id$/.test(name) && context.ids.length > 0 ? [fc.constantFrom(...context.ids)] : [];

      return withHints(fc.oneof(base, ...ids, ...(bounds.length > 0 ? [fc.constantFrom(...bounds)] : [])));
    }
    case "integer":
    case "number": {
      const min = schema.minimum ?? -1_000_000;
      const max = schema.maximum ?? 1_000_000;
      const inside =
        typeOf(schema) === "integer"
          ? fc.integer({
              min: Math.max(min, Number.MIN_SAFE_INTEGER),
              max: Math.min(max, Number.MAX_SAFE_INTEGER),
            })
          : fc.double({ min, max, noNaN: true });
      const bounds = numbersAtBounds(schema);

      return fc.oneof(inside, ...(bounds.length > 0 ? [fc.constantFrom(...bounds)] : []));
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      if (depth > 4) {
        return fc.constant([]);
      }

      return fc.array(validValue(doc, schema.items, context, name, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 6),
      });
    }
    case "object": {
      if (depth > 4) {
        return fc.constant({});
      }
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(
        Object.entries(properties).map(([key, inner]) => [
          key,
          validValue(doc, inner, context, key, depth + 1),
        ]),
      );

      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in model) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
};

/** A schema-shaped object with some fields broken: dropped, wrong-typed, out of bounds, odd text. */
const brokenObject = (doc: OpenApiDocument, raw: JsonSchema, context: FuzzContext): fc.Arbitrary<unknown> => {
  const schema = resolve(doc, raw);
  const keys = Object.keys(schema.properties ?? {});
  if (keys.length === 0) {
    return fc.dictionary(oddString, wrongTyped, { maxKeys: 4 });
  }
  const hostile = fc.oneof(
    { arbitrary: wrongTyped, weight: 3 },
    { arbitrary: oddString, weight: 4 },
    { arbitrary: oddNumber, weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );

  return fc
    .tuple(
      validValue(doc, { ...schema, required: keys }, context),
      fc.uniqueArray(fc.constantFrom(...keys), { minLength: 1, maxLength: Math.min(3, keys.length) }),
      fc.array(hostile, { minLength: 3, maxLength: 3 }),
      fc.option(fc.tuple(oddString, wrongTyped), { nil: undefined }),
    )
    .map(([valid, broken, values, extra]) => {
      const copy = { ...(valid as Record<string, unknown>) };
      broken.forEach((key, index) => {
        const value = values[index];
        if (value === undefined) {
          delete copy[key];
        } else {
          copy[key] = value;
        }
      });
      if (extra) {
        copy[extra[0]] = extra[1];
      }

      return copy;
    });
};

// Bodies that are not JSON at all, or almost JSON.
const malformedJson = fc.constantFrom(
  "",
  "{",
  "}",
  "{]",
  '{"a":}',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  '{"a":1} trailing',
  "\ufeff{}",
  "nul",
  "NaN",
  "undefined",
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"a":"\\x00"}',
  "\u0000",
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
  "1e99999",
  "-",
  '"unterminated',
  "[".repeat(5_000),
);

const deeplyNested = (maxBytes: number) =>
  fc
    .constantFrom(1_000, 50_000, Math.floor(maxBytes / 2) - 10)
    .map((depth) => "[".repeat(depth) + "]".repeat(depth));

const oversized = (maxBytes: number) =>
  fc
    .constantFrom(maxBytes + 1, maxBytes + 10_000, maxBytes * 3)
    .map((size) => `{"pad":"${"x".repeat(size)}"}`);

type BodyChoice = { body: string | undefined; kind: string };

const bodyFor = (doc: OpenApiDocument, op: Operation, context: FuzzContext): fc.Arbitrary<BodyChoice> => {
  const json = (kind: string) => (value: unknown) => ({ body: JSON.stringify(value) ?? "null", kind });
  const schemaBodies = op.body
    ? [
        { arbitrary: validValue(doc, op.body, context).map(json("valid")), weight: 6 },
        { arbitrary: brokenObject(doc, op.body, context).map(json("broken")), weight: 8 },
      ]
    : [{ arbitrary: fc.constant({ body: undefined, kind: "none" }), weight: 10 }];

  return fc.oneof(
    ...schemaBodies,
    { arbitrary: fc.jsonValue({ maxDepth: 3 }).map(json("any-json")), weight: 2 },
    { arbitrary: malformedJson.map((body) => ({ body, kind: "malformed" })), weight: 2 },
    { arbitrary: deeplyNested(context.maxBodyBytes).map((body) => ({ body, kind: "nested" })), weight: 1 },
    { arbitrary: oversized(context.maxBodyBytes).map((body) => ({ body, kind: "oversized" })), weight: 1 },
    { arbitrary: fc.constant({ body: undefined, kind: "no-body" }), weight: 1 },
  );
};

/** Percent-encodes a path segment; a lone surrogate (which encodeURIComponent refuses) goes raw. */
const encodeSegment = (value: string): string => {
  try {
    return encodeURIComponent(value);
  } catch {
    return `${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, ""))}%ED%A0%80`;
  }
};

// Path segments: real ids, random UUIDs, and hostile text (encoded, or raw percent sequences).
const pathValue = (context: FuzzContext): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: context.ids.length > 0 ? fc.constantFrom(...context.ids) : fc.uuid(), weight: 5 },
    { arbitrary: fc.uuid(), weight: 2 },
    { arbitrary: oddString.map(encodeSegment), weight: 3 },
    {
      arbitrary: fc.constantFrom(
        "%00",
        "%ZZ",
        "%",
        "%2F",
        "..",
        "%2e%2e",
        "%C0%AF",
        "%ED%A0%80",
        "a%00",
        "users",
      ),
      weight: 2,
    },
    {
      arbitrary:
        context.ids.length > 0 ? fc.constantFrom(...context.ids).map((id) => `${id}%00`) : fc.constant("%00"),
      weight: 1,
    },
  );

const queryValue = (doc: OpenApiDocument, parameter: Parameter, context: FuzzContext): fc.Arbitrary<string> =>
  fc.oneof(
    validValue(doc, parameter.schema, context, parameter.name).map((value) =>
      typeof value === "string" ? value : JSON.stringify(value),
    ),
    fc.constantFrom("-1", "0", "1", "100", "101", "1.5", "1e3", "9999999999999999999999", "", "abc", " 5"),
    oddString,
  );

// Header values must be ByteStrings without controls (the HTTP layer refuses the rest earlier).
const headerSafe = (value: string) => value.replace(/[^\x20-\x7e\x80-\xff]/g, "?");

const authorization = (context: FuzzContext): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 3 },
    {
      arbitrary:
        context.tokens.length > 0
          ? fc.constantFrom(...context.tokens).map((token) => `Bearer ${token}`)
          : fc.constant(undefined),
      weight: 6,
    },
    {
      arbitrary: fc.constantFrom(
        "Bearer",
        "Bearer ",
        "Bearer garbage",
        "Bearer a.b.c",
        "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.",
        "Basic dXNlcjpwYXNz",
        "bearer lowercase",
        `Bearer ${"x".repeat(4_000)}`,
      ),
      weight: 2,
    },
    {
      // A real token with its signature or payload tampered with.
      arbitrary:
        context.tokens.length > 0
          ? fc.constantFrom(...context.tokens).map((token) => `Bearer ${token.slice(0, -3)}abc`)
          : fc.constant(undefined),
      weight: 1,
    },
  );

const contentType = fc.oneof(
  { arbitrary: fc.constant("application/json"), weight: 8 },
  {
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "application/json; charset=utf-16",
      "application/vnd.api+json",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "",
      "application/json, text/plain",
    ),
    weight: 2,
  },
  { arbitrary: fc.constant(undefined), weight: 1 },
);

/** Requests for one operation. */
export const requestsFor = (
  doc: OpenApiDocument,
  op: Operation,
  context: FuzzContext,
): fc.Arbitrary<FuzzRequest> => {
  const pathParameters = op.parameters.filter((parameter) => parameter.in === "path");
  const queryParameters = op.parameters.filter((parameter) => parameter.in === "query");
  const headerParameters = op.parameters.filter((parameter) => parameter.in === "header");

  return fc
    .record({
      method: fc.oneof(
        { arbitrary: fc.constant(op.method), weight: 20 },
        { arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"), weight: 1 },
      ),
      path: fc.tuple(...pathParameters.map(() => pathValue(context))),
      query: fc.tuple(
        ...queryParameters.map((parameter) =>
          fc.option(queryValue(doc, parameter, context), { nil: undefined }),
        ),
      ),
      extraQuery: fc.option(fc.tuple(oddString, oddString), { nil: undefined, freq: 8 }),
      headers: fc.tuple(
        ...headerParameters.map(() =>
          fc.option(
            fc.oneof(
              fc.string({ minLength: 1, maxLength: 40, unit: "grapheme-ascii" }),
              fc.constantFrom("x".repeat(129), "x".repeat(128), " ", "key with spaces"),
              oddString,
            ),
            { nil: undefined, freq: 4 },
          ),
        ),
      ),
      authorization: authorization(context),
      contentType,
      requestId: fc.option(fc.oneof(oddString, fc.constantFrom("x".repeat(129), "ok-id_1.2:3")), {
        nil: undefined,
        freq: 6,
      }),
      body: bodyFor(doc, op, context),
    })
    .map((choice) => {
      let url = op.path;
      pathParameters.forEach((parameter, index) => {
        url = url.replace(`{${parameter.name}}`, choice.path[index] ?? "");
      });
      const search = new URLSearchParams();
      queryParameters.forEach((parameter, index) => {
        const value = choice.query[index];
        if (value !== undefined) {
          search.append(parameter.name, value);
        }
      });
      if (choice.extraQuery) {
        search.append(choice.extraQuery[0], choice.extraQuery[1]);
      }
      const query = search.toString();
      const headers: Record<string, string> = {};
      headerParameters.forEach((parameter, index) => {
        const value = choice.headers[index];
        if (value !== undefined) {
          headers[parameter.name] = headerSafe(value);
        }
      });
      if (choice.authorization !== undefined) {
        headers.authorization = headerSafe(choice.authorization);
      }
      if (choice.requestId !== undefined) {
        headers["x-request-id"] = headerSafe(choice.requestId);
      }
      const hasBody = choice.body.body !== undefined && !["GET", "HEAD"].includes(choice.method);
      if (hasBody && choice.contentType !== undefined) {
        headers["content-type"] = choice.contentType;
      }

      return {
        method: choice.method,
        url: query ? `${url}?${query}` : url,
        headers,
        body: hasBody ? choice.body.body : undefined,
        kind: hasBody ? choice.body.kind : "no-body",
      };
    });
};

/** The request as one line for a failure report (long bodies cut). */
export const describeRequest = (request: FuzzRequest): string => {
  const body =
    request.body === undefined
      ? ""
      : ` body(${request.body.length} chars, ${request.kind})=${JSON.stringify(request.body.slice(0, 400))}`;

  return `${request.method} ${request.url} headers=${JSON.stringify(request.headers).slice(0, 600)}${body}`;
};
