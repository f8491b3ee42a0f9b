// OpenTelemetry on the built worker process: a consumer span per delivery (with its statements
// inside) when OTEL_EXPORTER_OTLP_ENDPOINT is set; no OpenTelemetry module loaded otherwise.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, onPostgres, type TestDatabase } from "@agora/db/test/databases";
import { appendOutboxEvent } from "@agora/db/test/outbox";
import { orderCreated } from "@agora/domain/orders/events/order-created";
import { eventually } from "@agora/testing/eventually";
import {
  loadRecorder,
  type OtlpReceiver,
  readLoads,
  SpanKinds,
  startOtlpReceiver,
} from "@agora/testing/otlp";
import { builtEntry, startProcess } from "@agora/testing/processes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const main = new URL("../dist/main.js", import.meta.url);

describe.skipIf(!onPostgres)(
  "OpenTelemetry traces from the worker process (PostgreSQL only: a separate process needs a server database)",
  () => {
    let dir: string;
    let preload: string[];
    let receiver: OtlpReceiver;
    let target: TestDatabase;

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), "agora-worker-otel-"));
      preload = loadRecorder(dir);
      receiver = await startOtlpReceiver();
      target = await createTestDatabase();
    });
    afterAll(async () => {
      await receiver?.close();
      await target?.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    const loadsFile = (name: string) => path.join(dir, `${name}.loads`);
    const loaded = (name: string) => readLoads(loadsFile(name));

    const start = (name: string, env: Record<string, string>) => {
      return startProcess({
        args: [...preload, builtEntry(main)],
        env: {
          DATABASE_URL: target.url ?? "",
          DATA_DIR: path.join(dir, `${name}-data`),
          LOG_LEVEL: "info",
          WORKER_HEALTH_PORT: "0",
          AGORA_TEST_LOADS: loadsFile(name),
          ...env,
        },
      });
    };

    /** An order.created event for a new user, written as a use case would. */
    const insertEvent = async () => {
      const { sql } = target.db;
      const userId = randomUUID();
      const orderId = randomUUID();
      await sql.query(
        `INSERT INTO users (id, email, username, password_hash, status, created_at, updated_at)
         VALUES ($1, $2, $3, 'x', 'active', now(), now())`,
        [userId, `${userId}@example.com`, `u${userId.replaceAll("-", "").slice(0, 16)}`],
      );

      return appendOutboxEvent(
        sql,
        orderCreated.event(orderId, {
          order_id: orderId,
          provider_user_id: userId,
          customer_id: null,
          item_name: "Tea",
          quantity: 1,
        }),
      );
    };
    const delivered = (eventId: string) =>
      eventually(async () => {
        const { rows } = await target.db.sql.query(
          "SELECT 1 FROM outbox_events WHERE id = $1 AND processed_at IS NOT NULL",
          [eventId],
        );

        return rows.length === 1 ? true : undefined;
      });

    it("sends a consumer span per delivery, with the delivery's statements inside it", async () => {
      const worker = start("traced", { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
      try {
        const eventId = await insertEvent();
        await delivered(eventId);
        const delivery = await eventually(
          () => receiver.spans.find((span) => span.attributes["messaging.message.id"] === eventId),
          10_000,
        );
        expect(delivery).toMatchObject({
          service: "agora-worker",
          name: "deliver order.created",
          kind: SpanKinds.consumer,
          parentSpanId: "",
          attributes: { "messaging.destination.name": "order.created", "agora.outbox.attempt": 1 },
        });
        const inside = await eventually(() => {
          const found = receiver.spans.filter((span) => span.parentSpanId === delivery.spanId);

          return found.length > 0 ? found : undefined;
        }, 10_000);
        expect(inside.map((span) => span.name)).toContain("notifications_add_many");
        worker.child.kill("SIGTERM");
        expect(await worker.exited).toBe(0);
        expect(loaded("traced").map((load) => load.module)).toContain("@opentelemetry/sdk-trace");
      } finally {
        worker.child.kill("SIGKILL");
      }
    }, 60_000);

    it("loads no OpenTelemetry module and sends nothing when OTEL_EXPORTER_OTLP_ENDPOINT is unset", async () => {
      const before = receiver.spans.length;
      const worker = start("untraced", {});
      try {
        await delivered(await insertEvent());
        worker.child.kill("SIGTERM");
        expect(await worker.exited).toBe(0);
      } finally {
        worker.child.kill("SIGKILL");
      }
      // Only prom-client's own dependency (the health port's metrics): it requires the (no-op)
      // @opentelemetry/api for exemplars, as in the API; no SDK module.
      expect(loaded("untraced")).toEqual([{ module: "@opentelemetry/api", importer: "prom-client" }]);
      expect(receiver.spans.length).toBe(before);
    }, 60_000);
  },
);
