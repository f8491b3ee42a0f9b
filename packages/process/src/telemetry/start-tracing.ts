// Starts the optional tracing (tracing.ts): loads the OpenTelemetry implementation (./otel.ts) only
// when OTEL_EXPORTER_OTLP_ENDPOINT is set; without it no OpenTelemetry module is imported.
import type { Config } from "../config";
import type { Tracing, TracingService } from "./tracing";

/**
 * The tracer configured by OTEL_EXPORTER_OTLP_ENDPOINT, or undefined when it is unset: then the
 * OpenTelemetry packages are never imported.
 */
export const startTracing = async (
  config: Pick<Config, "otel">,
  service: TracingService,
): Promise<Tracing | undefined> => {
  if (!config.otel) {
    return undefined;
  }
  const { createOtelTracing } = await import("./otel");

  return createOtelTracing({ endpoint: config.otel.endpoint, service });
};
