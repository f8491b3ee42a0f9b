import type { systemOperations } from "@agora/contracts/system";
import type { DescriptionsOf } from "../../http/operations";

/** The system operations' OpenAPI descriptions, by operationId. */
export const systemDescriptions = {
  systemHealth: "200 while the process runs.",
  systemReady:
    "200 when dependencies answer, or when readiness checks are disabled (`READINESS_CHECKS`, enabled by " +
    "default in staging and production). The checks: `database` (a round trip) and `schema` (every migration " +
    "this build carries is applied; once it has passed it is not asked again). 503 `service_unavailable` " +
    "names each failing check in `error.details` (`path` = the check, `message` = what is wrong). From SIGTERM " +
    "on, whatever the setting, it answers 503 with `path` `process` (`shutting down`) while the process still " +
    "serves, so a balancer moves traffic away before it stops accepting. `realtime_fanout` reports the chat " +
    "fan-out (`mode`, and whether this process's LISTEN session or NATS subscription is `connected`), and " +
    "`checks.realtime_fanout` reads `degraded` while it is not: a lost fan-out never makes the answer 503, " +
    "since every route but the live chat push is served without it and sockets resync once it is back " +
    "(taking every replica out of the balancer because the broker blipped would be worse). Alert on " +
    "`agora_realtime_fanout_connected` in `/metrics` instead.",
  systemMetrics:
    "Public by design; restrict it at the proxy or network layer. Besides the process metrics and " +
    "`http_request_duration_seconds`: database pool connections in use, idle, waiting and max by pool; open " +
    "realtime sockets; the realtime fan-out's connection (`agora_realtime_fanout_connected{mode}` 1 or 0, and " +
    "`agora_realtime_fanout_reconnects_total{mode}`); and, read from the database in one bounded statement per scrape, the outbox backlog, " +
    "the age of its oldest pending event and its dead letters. When the database does not answer in time the " +
    "scrape still answers 200, without the outbox figures and with `agora_outbox_figures_up 0`. A deployment " +
    "that serves metrics on a port of their own (`METRICS_PORT`) answers 404 `not_found` here, so a balancer " +
    "routing every path cannot publish them.",
} satisfies DescriptionsOf<typeof systemOperations>;
