import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, onPostgres, type TestDatabase } from "@agora/db/test/databases";
import { appendOutboxEvent } from "@agora/db/test/outbox";
import { orderCreated } from "@agora/domain/orders/events/order-created";
import { eventually, sleep } from "@agora/testing/eventually";
import { builtEntry, startProcess } from "@agora/testing/processes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The built server entry, as production runs it (turbo builds before tests).
const main = new URL("../dist/main.js", import.meta.url);

describe.skipIf(!onPostgres)(
  "the API process and its embedded outbox worker (PostgreSQL only: a second process shares the database)",
  () => {
    let target: TestDatabase;
    let dataDir: string;

    beforeAll(async () => {
      builtEntry(main);
      target = await createTestDatabase();
      dataDir = mkdtempSync(path.join(tmpdir(), "agora-api-worker-"));
    });
    afterAll(async () => {
      await target?.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const startApi = (worker: "embedded" | "off") =>
      startProcess({
        args: [builtEntry(main)],
        env: {
          LOG_LEVEL: "info",
          DATABASE_URL: target.url ?? "",
          DATA_DIR: dataDir,
          HOST: "127.0.0.1",
          PORT: "0",
          WORKER: worker,
        },
      });

    const appendEvent = async () => {
      const userId = randomUUID();
      const orderId = randomUUID();
      await target.db.sql.query(
        `INSERT INTO users (id, email, username, password_hash, status, created_at, updated_at)
         VALUES ($1, $2, $3, 'x', 'active', now(), now())`,
        [userId, `${userId}@example.com`, `u${userId.slice(0, 8)}`],
      );

      return appendOutboxEvent(
        target.db.sql,
        orderCreated.event(orderId, {
          order_id: orderId,
          provider_user_id: userId,
          customer_id: null,
          item_name: "Tea",
          quantity: 1,
        }),
      );
    };
    const isProcessed = async (eventId: string) =>
      (
        await target.db.sql.query("SELECT 1 FROM outbox_events WHERE id = $1 AND processed_at IS NOT NULL", [
          eventId,
        ])
      ).rows.length === 1;

    it("WORKER=embedded delivers events while serving, and SIGTERM stops the worker and exits 0", async () => {
      const api = startApi("embedded");
      try {
        await eventually(() => api.output().includes("agora api listening"));
        const eventId = await appendEvent();
        await eventually(() => isProcessed(eventId));
        const { rows } = await target.db.sql.query("SELECT 1 FROM notifications WHERE event_id = $1", [
          eventId,
        ]);
        expect(rows).toHaveLength(1);
      } finally {
        api.child.kill("SIGTERM");
      }
      expect(await api.exited).toBe(0);
      expect(api.output()).toContain('"msg":"stopped"');
    });

    it("WORKER=off leaves events to apps/worker", async () => {
      const api = startApi("off");
      try {
        await eventually(() => api.output().includes("agora api listening"));
        const eventId = await appendEvent();
        await sleep(1_000);
        expect(await isProcessed(eventId)).toBe(false);
      } finally {
        api.child.kill("SIGTERM");
      }
      expect(await api.exited).toBe(0);
    });
  },
);
