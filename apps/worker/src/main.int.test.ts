import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SqlExecutor } from "@agora/db/sql";
import { createTestDatabase, onPostgres, type TestDatabase } from "@agora/db/test/databases";
import { appendOutboxEvent } from "@agora/db/test/outbox";
import { orderCreated } from "@agora/domain/orders/events/order-created";
import { eventually } from "@agora/testing/eventually";
import { builtEntry, startProcess } from "@agora/testing/processes";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The built entry point, as `node apps/worker/dist/main.js` runs it (turbo builds before tests).
const main = new URL("../dist/main.js", import.meta.url);

const start = (env: Record<string, string>) =>
  startProcess({ args: [builtEntry(main)], env: { LOG_LEVEL: "info", WORKER_HEALTH_PORT: "0", ...env } });

describe("worker process", () => {
  let dataDir: string;

  beforeAll(() => {
    builtEntry(main);
    dataDir = mkdtempSync(path.join(tmpdir(), "agora-worker-"));
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("exits 0 with a clear line when there is no DATABASE_URL (the API runs the worker on PGlite)", async () => {
    const worker = start({ DATA_DIR: dataDir });
    expect(await worker.exited).toBe(0);
    expect(worker.output()).toContain("DATABASE_URL is not set");
  });

  it("waits for an unreachable database with one line per attempt, and exits 1 after DATABASE_STARTUP_TIMEOUT_MS", async () => {
    const worker = start({
      DATA_DIR: dataDir,
      // Port 9 (discard): nothing answers PostgreSQL there.
      DATABASE_URL: "postgresql://agora:hunter2@127.0.0.1:9/agora",
      DATABASE_STARTUP_TIMEOUT_MS: "1500",
    });
    const started = Date.now();
    expect(await worker.exited).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    const output = worker.output();
    expect(output.match(/database unavailable at start-up; waiting/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(output).toContain("still unavailable after");
    expect(output).not.toContain("hunter2");
  });

  describe.skipIf(!onPostgres)(
    "on PostgreSQL (a separate process needs a server database; skipped on PGlite)",
    () => {
      let target: TestDatabase;

      beforeAll(async () => {
        target = await createTestDatabase();
      });
      afterAll(async () => {
        await target?.dispose();
      });

      /** An order.created event of a new order of `providerId`'s, written as the use case writes it. */
      const appendOrder = (
        providerId: string,
        quantity: number,
        options: { customerId?: string; sql?: SqlExecutor } = {},
      ) => {
        const orderId = randomUUID();

        return appendOutboxEvent(
          options.sql ?? target.db.sql,
          orderCreated.event(orderId, {
            order_id: orderId,
            provider_user_id: providerId,
            customer_id: options.customerId ?? null,
            item_name: "Tea",
            quantity,
          }),
        );
      };

      it("delivers pending events into the inbox by their kind, and on SIGTERM finishes, closes and exits 0", async () => {
        const userId = randomUUID();
        const { sql } = target.db;
        await sql.query(
          `INSERT INTO users (id, email, username, password_hash, status, created_at, updated_at)
         VALUES ($1, $2, $3, 'x', 'active', now(), now())`,
          [userId, `${userId}@example.com`, `u${userId.slice(0, 8)}`],
        );
        const eventId = await appendOrder(userId, 2);

        const worker = start({ DATABASE_URL: target.url ?? "", DATA_DIR: dataDir });
        try {
          await eventually(async () => {
            const { rows } = await sql.query(
              "SELECT 1 FROM outbox_events WHERE id = $1 AND processed_at IS NOT NULL",
              [eventId],
            );

            return rows.length === 1;
          });
          const inbox = await sql.query<{ user_id: string; kind: string; title: string; body: string }>(
            "SELECT user_id, kind, title, body FROM notifications WHERE event_id = $1",
            [eventId],
          );
          expect(inbox.rows).toEqual([
            { user_id: userId, kind: "order.created", title: "New order", body: "2 × Tea" },
          ]);
        } finally {
          worker.child.kill("SIGTERM");
        }
        expect(await worker.exited).toBe(0);
        expect(worker.output()).toContain("agora worker started");
        expect(worker.output()).toContain("agora worker stopped");
      });

      it("on SIGTERM mid-batch finishes the delivery it holds (not left to the lease), then exits 0", async () => {
        const userId = randomUUID();
        const { sql } = target.db;
        await sql.query(
          `INSERT INTO users (id, email, username, password_hash, status, created_at, updated_at)
         VALUES ($1, $2, $3, 'x', 'active', now(), now())`,
          [userId, `${userId}@example.com`, `u${userId.slice(0, 8)}`],
        );
        // Our lock on the recipient holds the delivery mid-batch: its inbox write checks the user.
        const holder = new pg.Client({ connectionString: target.url });
        await holder.connect();
        await holder.query("BEGIN");
        await holder.query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", [userId]);
        const eventId = await appendOrder(userId, 1);
        const worker = start({ DATABASE_URL: target.url ?? "", DATA_DIR: dataDir });
        try {
          await eventually(async () => {
            // Not on the holder: inside its transaction pg_stat_activity is a snapshot.
            const { rows } = await sql.query(
              "SELECT 1 FROM pg_stat_activity WHERE application_name = 'agora-worker' AND wait_event_type = 'Lock'",
            );

            return rows.length > 0;
          });
          worker.child.kill("SIGTERM");
          await eventually(() => worker.output().includes("finishing the batch in flight"));
          await new Promise((resolve) => setTimeout(resolve, 500));
          // Still there, still holding the event (its lease has most of a minute to run).
          expect(worker.child.exitCode).toBeNull();
          const held = await sql.query<{ processed: boolean; leased: boolean }>(
            "SELECT processed_at IS NOT NULL AS processed, available_at > now() AS leased FROM outbox_events WHERE id = $1",
            [eventId],
          );
          expect(held.rows[0]).toEqual({ processed: false, leased: true });
          await holder.query("ROLLBACK");
          expect(await worker.exited).toBe(0);
        } finally {
          await holder.end().catch(() => {});
          worker.child.kill("SIGKILL");
        }
        const done = await sql.query<{ processed: boolean; inbox: number }>(
          `SELECT processed_at IS NOT NULL AS processed,
                  (SELECT count(*)::int FROM notifications WHERE event_id = $1) AS inbox
             FROM outbox_events WHERE id = $1`,
          [eventId],
        );
        expect(done.rows[0]).toEqual({ processed: true, inbox: 1 });
        expect(worker.output()).toContain("agora worker stopped");
      });

      it("serves /health, /ready and /metrics on its health port; liveness fails while a loop is wedged and passes once it turns", async () => {
        const { sql } = target.db;
        const userId = randomUUID();
        await sql.query(
          `INSERT INTO users (id, email, username, password_hash, status, created_at, updated_at)
           VALUES ($1, $2, $3, 'x', 'active', now(), now())`,
          [userId, `${userId}@example.com`, `u${userId.slice(0, 8)}`],
        );
        const worker = start({
          DATABASE_URL: target.url ?? "",
          DATA_DIR: dataDir,
          WORKER_LIVENESS_SECONDS: "2",
          PUSH_TIMEOUT_MS: "1000",
          MAIL_TIMEOUT_MS: "1000",
          // A delivery held by our row lock waits (a wedged loop) instead of timing out.
          DATABASE_STATEMENT_TIMEOUT_MS: "60000",
        });
        const holder = new pg.Client({ connectionString: target.url });
        try {
          await eventually(() => /"health_port":\d+/.test(worker.output()));
          const port = Number(/"health_port":(\d+)/.exec(worker.output())?.[1]);
          const get = async (route: string) => {
            const response = await fetch(`http://127.0.0.1:${port}${route}`);

            return { status: response.status, body: await response.text() };
          };
          expect(await get("/ready")).toEqual({ status: 200, body: "ready\n" });
          expect(await get("/health")).toEqual({ status: 200, body: "ok\n" });
          expect((await get("/nope")).status).toBe(404);

          // One delivery, counted with its lag; claims are timed.
          await appendOrder(userId, 1);
          await eventually(async () =>
            (await get("/metrics")).body.includes('agora_outbox_deliveries_total{kind="order.created"} 1'),
          );
          const metrics = (await get("/metrics")).body;
          expect(metrics).toMatch(/agora_outbox_delivery_lag_seconds_count\{kind="order.created"\} 1/);
          expect(metrics).toMatch(/agora_outbox_claim_duration_seconds_count [1-9]/);
          expect(metrics).toMatch(/agora_outbox_loop_last_turn_age_seconds 0(\.\d+)?\n/);
          expect(metrics).toContain("process_resident_memory_bytes");
          expect(metrics).toMatch(/^agora_log_lines_dropped_total \d+$/m);

          // Our lock on the recipient holds the next delivery: that loop stops turning.
          await holder.connect();
          await holder.query("BEGIN");
          await holder.query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", [userId]);
          await appendOrder(userId, 2);
          await eventually(async () => (await get("/health")).status === 503, 10_000);
          expect((await get("/health")).body).toMatch(/^outbox loop has not turned for \d+ s\n$/);
          await eventually(() => worker.output().includes("outbox loop has not turned: liveness fails"));
          await holder.query("ROLLBACK");
          await eventually(async () => (await get("/health")).status === 200, 10_000);
        } finally {
          await holder.end().catch(() => {});
          worker.child.kill("SIGTERM");
        }
        expect(await worker.exited).toBe(0);
      });

      it("two worker processes draining one backlog deliver every event exactly once into the inbox", async () => {
        const { sql } = target.db;
        const events = 3_000;
        const [provider, customer] = [randomUUID(), randomUUID()];
        for (const userId of [provider, customer]) {
          await sql.query(
            `INSERT INTO users (id, email, username, password_hash, status, created_at, updated_at)
             VALUES ($1, $2, $3, 'x', 'active', now(), now())`,
            [userId, `${userId}@example.com`, `u${userId.slice(0, 8)}`],
          );
        }
        // Debug logs name every event a process marks delivered ("outbox event delivered").
        const env = {
          DATABASE_URL: target.url ?? "",
          DATA_DIR: dataDir,
          LOG_LEVEL: "debug",
          OUTBOX_BATCH_SIZE: "25",
        };
        const workers = [start(env), start(env)];
        try {
          await eventually(() => workers.every((worker) => worker.output().includes("agora worker started")));
          // The whole backlog at once (one transaction), while both are idle: both are woken and
          // claim side by side.
          await sql.transaction(async (tx) => {
            for (let i = 0; i < events; i += 1) {
              await appendOrder(provider, 1, { customerId: customer, sql: tx });
            }
          });
          await eventually(async () => {
            const { rows } = await sql.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM outbox_events WHERE processed_at IS NULL AND payload->>'provider_user_id' = $1",
              [provider],
            );

            return rows[0]?.n === 0;
          }, 60_000);
        } finally {
          for (const worker of workers) {
            worker.child.kill("SIGTERM");
          }
        }
        expect(await Promise.all(workers.map((worker) => worker.exited))).toEqual([0, 0]);

        const delivered = workers.map((worker) =>
          worker
            .output()
            .split("\n")
            .filter((line) => line.includes("outbox event delivered"))
            .map((line) => (JSON.parse(line) as { event_id: string }).event_id),
        );
        const { rows: backlog } = await sql.query<{ id: string }>(
          "SELECT id FROM outbox_events WHERE payload->>'provider_user_id' = $1",
          [provider],
        );
        // Each event delivered by exactly one of them, and both took part.
        const all = delivered.flat();
        expect(all).toHaveLength(events);
        expect(new Set(all)).toEqual(new Set(backlog.map((row) => row.id)));
        for (const mine of delivered) {
          expect(mine.length).toBeGreaterThan(0);
        }
        // Two inbox rows per event (provider and customer), none twice.
        const { rows: inbox } = await sql.query<{ rows: number; pairs: number; events: number }>(
          `SELECT count(*)::int AS rows, count(DISTINCT (event_id, user_id))::int AS pairs,
                  count(DISTINCT event_id)::int AS events
             FROM notifications WHERE user_id IN ($1, $2)`,
          [provider, customer],
        );
        expect(inbox[0]).toEqual({ rows: events * 2, pairs: events * 2, events });
        const { rows: failures } = await sql.query(
          "SELECT 1 FROM outbox_events WHERE payload->>'provider_user_id' = $1 AND (dead_at IS NOT NULL OR attempts > 0)",
          [provider],
        );
        expect(failures).toEqual([]);
      });
    },
  );
});
