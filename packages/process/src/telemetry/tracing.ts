// Optional tracing: what the processes need from a tracer. start-tracing.ts loads its
// OpenTelemetry implementation (./otel.ts) only when OTEL_EXPORTER_OTLP_ENDPOINT is set: without it
// no OpenTelemetry module is imported and nothing is sent. The types live apart from that loader so
// otel.ts can name them without importing the module that imports it (no import circle).

export type SpanKind = "server" | "consumer" | "internal";

export type SpanAttributes = Record<string, string | number | boolean>;

/** The span a piece of work runs in. */
export type ActiveSpan = {
  setAttributes(attributes: SpanAttributes): void;
  updateName(name: string): void;
  /** Marks the span failed (a 5xx, a failed delivery); `error` is recorded as type and first line. */
  fail(error?: unknown): void;
};

export type SpanOptions = {
  kind: SpanKind;
  attributes?: SpanAttributes;
  /**
   * Incoming propagation headers (`traceparent`, `tracestate`): the span continues that trace when
   * no span is active.
   */
  carrier?: Record<string, string | undefined>;
};

export type Tracing = {
  /**
   * Runs `work` in a new span: a child of the active span, else of `carrier`'s trace, else a root.
   * The span ends when `work` returns, or when the promise it returns settles (failed if it
   * rejects).
   */
  inSpan<T>(name: string, options: SpanOptions, work: (span: ActiveSpan) => T): T;
  /**
   * Wraps one SQL statement (the database's statement hook). Statements run outside any span
   * (the worker's idle polling, the realtime session check) make no span of their own.
   */
  query<T>(statement: { text: string; name: string | undefined }, run: () => Promise<T>): Promise<T>;
  /** Sends what is buffered and stops; bounded, never throws. */
  shutdown(): Promise<void>;
};

export type TracingService = { name: string; version?: string | undefined };
