// SIGTERM on the built API process (`node dist/main.js`), watched from outside: /ready turns 503
// first while requests are still served, then the listener closes, a request in flight and the
// embedded worker's batch finish, realtime sockets close with 1001, and the process exits 0.
//
// To have a request and a delivery genuinely in flight, the test holds a row lock on a user from
// its own connection: the request updates that user, and the delivery writes that user's inbox row
// (its foreign-key check waits on the same lock). Releasing the lock lets both finish.

import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { realtimeCloseCodes } from "@agora/contracts/realtime";
import { createTestDatabase, onPostgres, type TestDatabase } from "@agora/db/test/databases";
import { appendOutboxEvent } from "@agora/db/test/outbox";
import { orderCreated } from "@agora/domain/orders/events/order-created";
import { eventually, sleep } from "@agora/testing/eventually";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  type ApiProcess,
  createMember,
  startProcess,
  TEST_TOKEN_SECRET,
  waitForLockWait,
} from "../test/processes";

/** Short here; production defaults to 5 s (SHUTDOWN_DELAY_MS). */
const DELAY_MS = 1_500;
/** The drain limit of server.ts. */
const DRAIN_LIMIT_MS = 10_000;

/** A GET over a fresh connection: status and the Connection header (or the connection error). */
const probe = (origin: string, pathname: string) =>
  new Promise<{ status: number; connection: string | undefined; body: string } | { error: string }>(
    (resolve) => {
      const req = httpRequest(`${origin}${pathname}`, { agent: false }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => {
          body += chunk.toString("utf8");
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }),
        );
      });
      req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      req.end();
    },
  );

describe.skipIf(!onPostgres)(
  "SIGTERM on the API process (PostgreSQL only: the test holds row locks from its own connection to keep a request and a delivery in flight)",
  () => {
    let target: TestDatabase;
    let client: pg.Client;
    let dataDir: string;
    let api: ApiProcess | undefined;

    beforeAll(async () => {
      target = await createTestDatabase();
      client = new pg.Client({ connectionString: target.url });
      await client.connect();
      dataDir = mkdtempSync(path.join(tmpdir(), "agora-shutdown-"));
    });
    afterAll(async () => {
      api?.child.kill("SIGKILL");
      await client?.end();
      await target?.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("turns /ready 503 first, keeps serving for SHUTDOWN_DELAY_MS, then stops accepting, drains, closes sockets with 1001, finishes the worker's batch and exits 0", async () => {
      const member = await createMember(client);
      const peer = await createMember(client);
      const [low, high] = [member.id, peer.id].sort();
      const conversationId = randomUUID();
      await client.query(
        "INSERT INTO conversations (id, user_a_id, user_b_id, created_at, updated_at) VALUES ($1, $2, $3, now(), now())",
        [conversationId, low, high],
      );

      api = startProcess({
        APP_ENV: "development",
        DATABASE_URL: target.url ?? "",
        DATA_DIR: dataDir,
        TOKEN_SECRET: TEST_TOKEN_SECRET,
        HOST: "127.0.0.1",
        PORT: "0",
        WORKER: "embedded",
        READINESS_CHECKS: "enabled",
        SHUTDOWN_DELAY_MS: String(DELAY_MS),
        LOG_LEVEL: "info",
      });
      const origin = await api.origin();
      await eventually(
        async () => ((await probe(origin, "/ready")) as { status?: number }).status === 200 || undefined,
      );

      // A realtime socket, open.
      const socket = new WebSocket(
        `${origin.replace("http", "ws")}/api/v1/chat/conversations/${conversationId}/realtime`,
        {
          headers: { authorization: `Bearer ${member.token}` },
        },
      );
      const socketClosed = new Promise<{ code: number; at: number }>((resolve) =>
        socket.on("close", (code) => resolve({ code, at: Date.now() })),
      );
      await new Promise<void>((resolve, reject) => {
        socket.once("open", () => resolve());
        socket.once("error", reject);
      });

      // Hold the member's row: the request below and the delivery of the event below wait on it.
      const holder = new pg.Client({ connectionString: target.url });
      await holder.connect();
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", [member.id]);
      const orderId = randomUUID();
      const eventId = await appendOutboxEvent(
        target.db.sql,
        orderCreated.event(orderId, {
          order_id: orderId,
          provider_user_id: member.id,
          customer_id: null,
          item_name: "Tea",
          quantity: 1,
        }),
      );
      await waitForLockWait(client, "agora-outbox");
      const inFlight = fetch(`${origin}/api/v1/auth/me`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${member.token}`, "content-type": "application/json" },
        body: JSON.stringify({ username: `renamed${member.id.slice(0, 8)}`, display_name: "Renamed" }),
      }).then(async (response) => ({ status: response.status, body: await response.text(), at: Date.now() }));
      await waitForLockWait(client, "agora-api");

      const signalledAt = Date.now();
      api.child.kill("SIGTERM");

      // 1. Draining, still serving: /ready is 503 naming the process, the rest answers with
      //    Connection: close so keep-alive connections end.
      const notReady = await eventually(async () => {
        const answer = await probe(origin, "/ready");

        return "status" in answer && answer.status === 503 ? answer : undefined;
      }, 1_000);
      expect(Date.now() - signalledAt).toBeLessThan(DELAY_MS);
      expect(JSON.parse(notReady.body)).toMatchObject({
        success: false,
        error: { code: "service_unavailable", details: [{ path: "process", message: "shutting down" }] },
      });
      const health = await probe(origin, "/health");
      expect(health).toMatchObject({ status: 200, connection: "close" });
      expect(Date.now() - signalledAt).toBeLessThan(DELAY_MS);

      // 2. After the pause: new connections are refused, sockets get 1001, the request and the
      //    batch are still in flight (they wait on our lock), and the process is still there.
      const refusedAt = await eventually(async () => {
        const answer = await probe(origin, "/health");

        return "error" in answer ? Date.now() : undefined;
      }, DELAY_MS + 5_000);
      expect(refusedAt - signalledAt).toBeGreaterThanOrEqual(DELAY_MS - 100);
      const closed = await socketClosed;
      expect(closed.code).toBe(realtimeCloseCodes.serverShutdown);
      expect(closed.at - signalledAt).toBeGreaterThanOrEqual(DELAY_MS - 100);
      await sleep(300);
      expect(api.child.exitCode).toBeNull();
      const unfinished = await client.query("SELECT processed_at FROM outbox_events WHERE id = $1", [
        eventId,
      ]);
      expect(unfinished.rows[0]?.processed_at).toBeNull();

      // 3. Released: the request answers, the delivery completes, the process exits 0 in time.
      await holder.query("ROLLBACK");
      await holder.end();
      const answered = await inFlight;
      expect(answered.status).toBe(200);
      expect(await api.exited).toBe(0);
      expect(Date.now() - signalledAt).toBeLessThan(DELAY_MS + DRAIN_LIMIT_MS);
      const delivered = await client.query<{ processed: boolean; inbox: number }>(
        `SELECT processed_at IS NOT NULL AS processed,
                (SELECT count(*)::int FROM notifications WHERE event_id = $1) AS inbox
           FROM outbox_events WHERE id = $1`,
        [eventId],
      );
      expect(delivered.rows[0]).toEqual({ processed: true, inbox: 1 });

      const messages = api.lines().map((line) => line.msg);
      const order = [
        "shutting down: /ready answers 503",
        "no new connections; draining in-flight requests",
        "stopped",
      ].map((msg) => messages.indexOf(msg));
      expect(order.every((index) => index >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(api.lines().find((line) => line.msg === "stopped")).toMatchObject({ drained: true });
      expect(api.lines().find((line) => line.msg === "shutting down: /ready answers 503")).toMatchObject({
        signal: "SIGTERM",
        delay_ms: DELAY_MS,
      });
    }, 60_000);
  },
);
