import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, onPostgres, type TestDatabase } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The built server entry, as production runs it (turbo builds before tests).
const main = fileURLToPath(new URL("../dist/main.js", import.meta.url));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const eventually = async (check: () => Promise<boolean> | boolean, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error("condition not met in time");
    }
    await sleep(50);
  }
};

describe.skipIf(!onPostgres)(
  "the API process and its embedded outbox worker (PostgreSQL only: a second process shares the database)",
  () => {
    let target: TestDatabase;
    let dataDir: string;

    beforeAll(async () => {
      if (!existsSync(main)) {
        throw new Error("apps/api/dist is missing: run `pnpm build` (turbo runs it before `pnpm test`)");
      }
      target = await createTestDatabase();
      dataDir = mkdtempSync(path.join(tmpdir(), "agora-api-worker-"));
    });
    afterAll(async () => {
      await target?.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const startApi = (worker: "embedded" | "off") => {
      const child: ChildProcess = spawn(process.execPath, [main], {
        env: {
          PATH: process.env.PATH ?? "",
          LOG_LEVEL: "info",
          DATABASE_URL: target.url ?? "",
          DATA_DIR: dataDir,
          HOST: "127.0.0.1",
          PORT: "0",
          WORKER: worker,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString("utf8");
      });
      child.stderr?.on("data", (chunk: Buffer) => {
        output += chunk.toString("utf8");
      });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));

      return { child, output: () => output, exited };
    };

    const appendEvent = async () => {
      const userId = randomUUID();
      const eventId = randomUUID();
      const orderId = randomUUID();
      await target.db.sql.query(
        `INSERT INTO users (id, email, username, password_hash, status, created_at, updated_at)
         VALUES ($1, $2, $3, 'x', 'active', now(), now())`,
        [userId, `${userId}@example.com`, `u${userId.slice(0, 8)}`],
      );
      await target.db.sql.query(
        `INSERT INTO outbox_events (id, kind, aggregate_type, aggregate_id, payload, available_at, created_at)
         VALUES ($1, 'order.created', 'order', $2, $3::jsonb, now(), now())`,
        [
          eventId,
          orderId,
          JSON.stringify({
            order_id: orderId,
            provider_user_id: userId,
            customer_id: null,
            item_name: "Tea",
            quantity: 1,
          }),
        ],
      );

      return eventId;
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
