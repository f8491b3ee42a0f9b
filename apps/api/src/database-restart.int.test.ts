// The API process (as `pnpm start` runs it) against a PostgreSQL server of the test's own: started
// while the database is down, then serving writers while the database restarts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { onPostgres, openTestPool } from "@agora/db/test/databases";
import { appendOutboxEvent } from "@agora/db/test/outbox";
import { orderCreated } from "@agora/domain/orders/events/order-created";
import { eventually, sleep } from "@agora/testing/eventually";
import { builtEntry, type StartedProcess, startProcess } from "@agora/testing/processes";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrivatePostgres, findPostgresBin, type PrivatePostgres } from "../test/private-postgres";

const start = new URL("../dist/start.js", import.meta.url);
const postgresBin = findPostgresBin();

const WRITERS = 8;
/** How long the database stays down during the restart, so the outage is observable from outside. */
const OUTAGE_MS = 1_500;

type Attempt = { at: number; status: number | "network-error"; userId?: string };

/** Polls as the outage demands: a check that throws (the database restarting) is "not yet". */
const until = <T>(check: () => Promise<T | undefined | false>, timeoutMs: number) =>
  eventually(check, { timeoutMs, intervalMs: 50, retryErrors: true });

describe.skipIf(!onPostgres || !postgresBin)(
  "the API process through a database outage (PostgreSQL only, and only where the PostgreSQL server binaries are installed: it runs a server of its own and restarts it)",
  () => {
    let postgres: PrivatePostgres;
    let api: StartedProcess | undefined;
    let origin = "";
    let dataDir: string;
    const exited = { code: undefined as number | null | undefined };

    beforeAll(async () => {
      builtEntry(start);
      postgres = await createPrivatePostgres(postgresBin ?? "");
      dataDir = mkdtempSync(path.join(tmpdir(), "agora-restart-"));
    }, 60_000);
    afterAll(async () => {
      if (api && exited.code === undefined) {
        api.child.kill("SIGKILL");
      }
      await postgres?.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const lines = () => api?.lines() ?? [];
    const output = () => api?.output() ?? "";

    const get = async (pathname: string) => {
      const response = await fetch(`${origin}${pathname}`);
      await response.text();

      return response.status;
    };

    it("starts with the database down: waits with one line per attempt, /health 200 and /ready 503, then serves once it is up", async () => {
      api = startProcess({
        args: [builtEntry(start)],
        env: {
          APP_ENV: "development",
          DATABASE_URL: postgres.url,
          DATA_DIR: dataDir,
          HOST: "127.0.0.1",
          PORT: "0",
          WORKER: "embedded",
          READINESS_CHECKS: "enabled",
          RATE_LIMIT_AUTH_PER_IP: "0",
          LOG_LEVEL: "info",
        },
      });
      void api.exited.then((code) => {
        exited.code = code;
      });

      const listening = await until(
        async () => lines().find((line) => line.msg === "agora api listening")?.address as string | undefined,
        15_000,
      );
      origin = listening;
      // Down: alive, not ready, and requests are refused with the envelope.
      await until(
        async () =>
          lines().filter((line) => line.msg === "database unavailable at start-up; waiting").length >= 3 ||
          undefined,
        15_000,
      );
      expect(await get("/health")).toBe(200);
      expect(await get("/ready")).toBe(503);
      const refused = await fetch(`${origin}/api/v1/catalog/categories`);
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ success: false, error: { code: "service_unavailable" } });
      const waiting = lines().filter((line) => line.msg === "database unavailable at start-up; waiting");
      expect(waiting.map((line) => line.attempt)).toEqual(waiting.map((_, index) => index + 1));
      expect(exited.code).toBeUndefined();

      // Up: it migrates, seeds and serves without a restart.
      const upAt = Date.now();
      await postgres.start();
      await until(async () => ((await get("/ready")) === 200 ? true : undefined), 15_000);
      process.stdout.write(`restart test: ready ${Date.now() - upAt} ms after the database started\n`);
      expect(await get("/api/v1/catalog/categories")).toBe(200);
      // Log lines are buffered (flushed every 250 ms).
      await until(async () => lines().some((line) => line.msg === "database ready") || undefined, 5_000);
    }, 60_000);

    it("survives a database restart under writers: nothing acknowledged is lost, /ready is 503 meanwhile, writes succeed within 2 s of its return", async () => {
      expect(origin).not.toBe("");
      const attempts: Attempt[] = [];
      const readiness: { at: number; status: number | "network-error" }[] = [];
      let running = true;
      let sequence = 0;

      const writer = async (writerIndex: number) => {
        while (running) {
          sequence += 1;
          const name = `w${writerIndex}_${sequence}`;
          const at = Date.now();
          try {
            const response = await fetch(`${origin}/api/v1/auth/register`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({
                email: `${name}@example.com`,
                username: name,
                password: "correct horse battery",
              }),
            });
            const body = (await response.json()) as { data?: { user_id?: string } };
            attempts.push({
              at,
              status: response.status,
              ...(body.data?.user_id ? { userId: body.data.user_id } : {}),
            });
          } catch {
            attempts.push({ at, status: "network-error" });
            await sleep(20);
          }
        }
      };
      const poller = async () => {
        while (running) {
          const at = Date.now();
          readiness.push({ at, status: await get("/ready").catch(() => "network-error" as const) });
          await sleep(100);
        }
      };

      const load = [...Array.from({ length: WRITERS }, (_, index) => writer(index)), poller()];
      await sleep(2_000);
      const downAt = Date.now();
      await postgres.stop();
      await sleep(OUTAGE_MS);
      await postgres.start();
      const backAt = Date.now();
      await sleep(4_000);
      running = false;
      await Promise.all(load);

      // The process is still serving.
      expect(exited.code).toBeUndefined();
      expect(await get("/health")).toBe(200);
      expect(await get("/ready")).toBe(200);

      const acknowledged = attempts
        .filter((attempt) => attempt.status === 201)
        .map((attempt) => attempt.userId ?? "");
      const byStatus = new Map<string, number>();
      for (const attempt of attempts) {
        byStatus.set(String(attempt.status), (byStatus.get(String(attempt.status)) ?? 0) + 1);
      }
      const firstSuccessAfterReturn = attempts
        .filter((attempt) => attempt.status === 201 && attempt.at >= backAt)
        .reduce((first, attempt) => Math.min(first, attempt.at), Number.POSITIVE_INFINITY);
      const recoveryMs = firstSuccessAfterReturn - backAt;

      // Every acknowledged registration is in the database.
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      let stored: number;
      try {
        const { rows } = await client.query<{ count: string }>(
          "SELECT count(*) AS count FROM users WHERE id = ANY($1::uuid[])",
          [acknowledged],
        );
        stored = Number(rows[0]?.count);
      } finally {
        await client.end();
      }

      process.stdout.write(
        `restart test: ${attempts.length} registrations by ${WRITERS} writers (${[...byStatus.entries()].map(([status, count]) => `${status}: ${count}`).join(", ")}); ` +
          `${acknowledged.length} acknowledged, ${stored} of them stored; database down ${backAt - downAt} ms; ` +
          `first success ${recoveryMs} ms after its return; /ready 503 seen ${readiness.filter((probe) => probe.status === 503).length} times\n`,
      );
      expect(acknowledged.length).toBeGreaterThan(0);
      expect(stored).toBe(acknowledged.length);
      // Refusals during the outage are 503s with the envelope, never a dropped connection or a 500.
      expect([...byStatus.keys()].sort()).toEqual(expect.arrayContaining(["201", "503"]));
      expect([...byStatus.keys()].filter((status) => status !== "201" && status !== "503")).toEqual([]);
      expect(recoveryMs).toBeLessThanOrEqual(2_000);
      expect(
        readiness.some((probe) => probe.status === 503 && probe.at >= downAt && probe.at <= backAt),
      ).toBe(true);
    }, 60_000);

    it("resumes outbox delivery after the restart (the embedded worker backed off and came back)", async () => {
      const database = await openTestPool(postgres.url, { poolMax: 1 });
      try {
        const { rows } = await database.sql.query<{ id: string }>(
          "SELECT id FROM users ORDER BY created_at LIMIT 1",
        );
        const userId = rows[0]?.id;
        expect(userId).toBeDefined();
        const orderId = "0190a9a0-0000-7000-8000-00000000f418";
        const eventId = await appendOutboxEvent(
          database.sql,
          orderCreated.event(orderId, {
            order_id: orderId,
            provider_user_id: userId ?? "",
            customer_id: null,
            item_name: "Tea",
            quantity: 1,
          }),
        );
        await until(async () => {
          const processed = await database.sql.query(
            "SELECT 1 FROM outbox_events WHERE id = $1 AND processed_at IS NOT NULL",
            [eventId],
          );

          return processed.rows.length === 1 ? true : undefined;
        }, 15_000);
      } finally {
        await database.close();
      }
      // No unhandled error, stack trace or SQL reached the log through all of it.
      expect(output()).not.toMatch(/\n\s+at |Emitted 'error' event|INSERT INTO|UPDATE \w+ SET/);
      api?.child.kill("SIGTERM");
      await until(async () => (exited.code === undefined ? undefined : true), 15_000);
      expect(exited.code).toBe(0);
    }, 30_000);
  },
);
