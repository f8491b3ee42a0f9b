// For the processes' tracing tests: a tiny OTLP/HTTP receiver (the JSON encoding the exporter sends)
// and a module hook, preloaded with `node --import`, that records every module a process resolves
// under node_modules/@opentelemetry (to prove that none is loaded when tracing is off).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";

export type ReceivedSpan = {
  service: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  /** "" for a root span. */
  parentSpanId: string;
  attributes: Record<string, unknown>;
};

/** OTLP span kinds. */
export const SpanKinds = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};
type OtlpAttribute = { key: string; value: OtlpValue };
type OtlpExport = {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{
        name: string;
        kind: number;
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        attributes?: OtlpAttribute[];
      }>;
    }>;
  }>;
};

const attributeValue = (value: OtlpValue): unknown => {
  if (value.stringValue !== undefined) {
    return value.stringValue;
  }
  if (value.intValue !== undefined) {
    return Number(value.intValue);
  }

  return value.boolValue ?? value.doubleValue;
};

const attributesOf = (attributes: OtlpAttribute[] = []) =>
  Object.fromEntries(attributes.map((attribute) => [attribute.key, attributeValue(attribute.value)]));

/** Ids arrive as hex in OTLP/JSON (base64 from some encoders): hex either way. */
const hexId = (id: string | undefined): string => {
  if (!id) {
    return "";
  }

  return /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, "base64").toString("hex");
};

export type OtlpReceiver = {
  /** What to set OTEL_EXPORTER_OTLP_ENDPOINT to. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Content types of the exports received. */
  contentTypes: Set<string>;
  close(): Promise<void>;
};

export const startOtlpReceiver = async (): Promise<OtlpReceiver> => {
  const spans: ReceivedSpan[] = [];
  const contentTypes = new Set<string>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/traces") {
        response.writeHead(404).end();

        return;
      }
      contentTypes.add(String(request.headers["content-type"]));
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpExport;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)["service.name"]);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              service,
              name: span.name,
              kind: span.kind,
              traceId: hexId(span.traceId),
              spanId: hexId(span.spanId),
              parentSpanId: hexId(span.parentSpanId),
              attributes: attributesOf(span.attributes),
            });
          }
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/**
 * Writes the module hook into `dir` and returns the `node` arguments that preload it. A process
 * started with them appends a line `<url>\t<importer url>` for each module of these packages
 * (@opentelemetry's unless told) it resolves to the file named by its AGORA_TEST_LOADS
 * environment variable (read it with `readLoads`).
 */
export const loadRecorder = (dir: string, packages: readonly string[] = ["@opentelemetry"]): string[] => {
  const hook = path.join(dir, "record-loads.mjs");
  writeFileSync(
    hook,
    `import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";
const file = process.env.AGORA_TEST_LOADS;
const recorded = ${JSON.stringify(packages.map((name) => `/${name}/`))};
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    if (file && recorded.some((part) => result.url.includes(part))) appendFileSync(file, result.url + "\\t" + context.parentURL + "\\n");
    return result;
  },
});
`,
  );

  return ["--import", pathToFileURL(hook).href];
};

export type ModuleLoad = { module: string; importer: string };

/** The package a module URL belongs to (`@scope/name` or `name`), or the URL when none. */
const packageOf = (url: string): string => {
  const found = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);

  return found?.[1] ?? url;
};

/**
 * What a process recorded, by package: each package it loaded (of those recorded) and the package
 * that asked for it (distinct pairs; a package's requires of its own files are left out).
 */
export const readLoads = (file: string): ModuleLoad[] => {
  if (!existsSync(file)) {
    return [];
  }
  const pairs = new Set(
    readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [url = "", parent = ""] = line.split("\t");

        return `${packageOf(url)}\t${packageOf(parent)}`;
      }),
  );

  return [...pairs]
    .sort()
    .map((pair) => {
      const [module = "", importer = ""] = pair.split("\t");

      return { module, importer };
    })
    .filter((load) => load.module !== load.importer);
};
