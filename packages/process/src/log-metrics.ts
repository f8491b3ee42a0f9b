// The log's own health as a Prometheus series, registered by the API and by the worker process:
// lines are dropped (never queued without bound) when stdout's reader falls behind, and an
// operator must see that the log has gaps (docs/operations.md, alert AgoraLogLinesDropped).
import type { Registry } from "prom-client";
import { copiedCounter } from "./copied-counter";
import { droppedLogLines } from "./logging";

export const registerLogMetrics = (registry: Registry, dropped: () => number = droppedLogLines): void =>
  copiedCounter(
    registry,
    {
      name: "agora_log_lines_dropped_total",
      help: "Log lines this process dropped because stdout's reader (the log collector) had fallen more than 16 MiB behind.",
    },
    () => [[{}, dropped()]],
  );
