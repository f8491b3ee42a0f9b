// The OpenTelemetry implementation of Tracing (tracing.ts), imported only when
// OTEL_EXPORTER_OTLP_ENDPOINT is set (see start-tracing.ts). Spans are made by hand at our own seams
// (the request handler, the SQL executors, outbox delivery) rather than by patching modules at load
// time: the apps are bundles, and their seams already see every request, statement and event.
import {
  context,
  defaultTextMapGetter,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import type { ActiveSpan, SpanOptions, Tracing, TracingService } from "./tracing";

const kinds = { server: SpanKind.SERVER, consumer: SpanKind.CONSUMER, internal: SpanKind.INTERNAL } as const;

/** Spans are sent at least every second (and on shutdown). */
const EXPORT_INTERVAL_MS = 1_000;
/** Shutdown waits this long for the last export at most. */
const SHUTDOWN_WAIT_MS = 3_000;
/** Statement text kept on a span (parameters are never in it; they are bound separately). */
const MAX_QUERY_TEXT = 2_000;

const markFailed = (span: Span, error?: unknown) => {
  if (error === undefined) {
    span.setStatus({ code: SpanStatusCode.ERROR });

    return;
  }
  // The type and first line only, as in the logs: never a stack.
  const type = error instanceof Error ? error.name : typeof error;
  const message = (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
  span.setAttribute("error.type", type);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
};

const handleOf = (span: Span): ActiveSpan => ({
  setAttributes: (attributes) => {
    span.setAttributes(attributes);
  },
  updateName: (name) => {
    span.updateName(name);
  },
  fail: (error) => markFailed(span, error),
});

/** Ends `span` when `result` is done: at once, or when the promise settles. */
const endWith = <T>(span: Span, result: T): T => {
  if (result instanceof Promise) {
    return result.then(
      (value: unknown) => {
        span.end();

        return value;
      },
      (error: unknown) => {
        markFailed(span, error);
        span.end();
        throw error;
      },
    ) as T;
  }
  span.end();

  return result;
};

export const createOtelTracing = ({
  endpoint,
  service,
}: {
  endpoint: string;
  service: TracingService;
}): Tracing => {
  const contextManager = new AsyncLocalStorageContextManager();
  contextManager.enable();
  context.setGlobalContextManager(contextManager);
  const propagator = new W3CTraceContextPropagator();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      "service.name": service.name,
      ...(service.version ? { "service.version": service.version } : {}),
    }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }),
        scheduledDelayMillis: EXPORT_INTERVAL_MS,
      }),
    ],
  });
  const tracer = provider.getTracer("agora", service.version);

  const inSpan = <T>(name: string, options: SpanOptions, work: (span: ActiveSpan) => T): T => {
    const active = context.active();
    const parent =
      options.carrier && !trace.getSpan(active)
        ? propagator.extract(active, options.carrier, defaultTextMapGetter)
        : active;

    return tracer.startActiveSpan(
      name,
      { kind: kinds[options.kind], ...(options.attributes ? { attributes: options.attributes } : {}) },
      parent,
      (span) => {
        let result: T;
        try {
          result = work(handleOf(span));
        } catch (error) {
          markFailed(span, error);
          span.end();
          throw error;
        }

        return endWith(span, result);
      },
    );
  };

  return {
    inSpan,
    query(statement, run) {
      if (!trace.getSpan(context.active())) {
        return run();
      }
      const operation = /^\s*([A-Za-z]+)/.exec(statement.text)?.[1]?.toUpperCase() ?? "SQL";

      return tracer.startActiveSpan(
        statement.name ?? operation,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            "db.system.name": "postgresql",
            "db.operation.name": operation,
            "db.query.text": statement.text.slice(0, MAX_QUERY_TEXT),
            ...(statement.name ? { "db.query.summary": statement.name } : {}),
          },
        },
        (span) => endWith(span, run()),
      );
    },
    async shutdown() {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        provider.shutdown().catch(() => {}),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, SHUTDOWN_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
    },
  };
};
