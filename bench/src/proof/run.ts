// The multi-process proof: 2 API processes (WORKER=off) and 2 outbox workers on one PostgreSQL
// database, behind nginx configured from infra/nginx.conf, under autocannon's load. Four phases,
// each counted the same way (requests, 2xx, retries, duplicates found, lost):
//
// 1. orders with Idempotency-Keys, a share of them replayed (often while the original is still in
//    flight): one order, one event and one inbox row per recipient for each key;
// 2. chat: messages posted to API 1 reach the recipients' WebSockets on API 2, each exactly once;
// 3. a rolling restart under load (SIGTERM to API 1, restart, then API 2): nothing acknowledged is
//    lost, and every request that failed is retried with its key to exactly one order;
// 4. `kill -9` of a worker stuck mid-batch: after its lease the events are delivered by the other
//    worker, none twice into the inbox and none lost.
import { spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sleep } from "@agora/testing/eventually";
import { freePort } from "@agora/testing/processes";
import pg from "pg";
import { LIMITS_OUT_OF_REACH, type Managed, startManaged, stop, waitFor200 } from "../common.ts";
import { proveChat } from "./chat.ts";
import { findNginx, startNginx } from "./cluster.ts";
import { killWorkerMidBatch } from "./kill-worker.ts";
import { checkOrders, type KeyRecord, loadOrders, retryUnanswered } from "./orders.ts";
import { type Member, seedWorld } from "./world.ts";

const repo = fileURLToPath(new URL("../../..", import.meta.url));
const apiMain = path.join(repo, "apps/api/dist/main.js");
const apiCli = path.join(repo, "apps/api/dist/cli.js");
const workerMain = path.join(repo, "apps/worker/dist/main.js");

const TOKEN_SECRET = "proof-secret-proof-secret-proof-secret-0123456789";
/** Short, so the kill phase is quick; production keeps 60 s (OUTBOX_LEASE_SECONDS). */
const LEASE_SECONDS = 3;
/** /ready turns 503 this long before an API stops accepting (SHUTDOWN_DELAY_MS). */
const SHUTDOWN_DELAY_MS = 1_000;
/** infra/nginx.conf's fail_timeout: a replica nginx saw refuse is skipped this long. */
const NGINX_FAIL_TIMEOUT_MS = 5_000;

export type PhaseRow = {
  phase: string;
  requests: number;
  ok: number;
  retries: number;
  duplicates: number;
  lost: number;
  note: string;
};

export type ProofReport = { rows: PhaseRow[]; notes: string[]; ok: boolean; seconds: number };

export type ProofOptions = {
  /** A PostgreSQL URL on whose server the proof creates (and drops) its own database. */
  serverUrl: string;
  /** Seconds of load in the idempotency phase. */
  loadSeconds?: number;
  /** autocannon connections. */
  connections?: number;
  /** nginx binary (found on PATH or in /usr/sbin otherwise). */
  nginx?: string;
  /** Keep the processes' logs (they are kept anyway when the proof fails). */
  keepLogs?: boolean;
  log?: (line: string) => void;
};

const isOk = (status: number) => status >= 200 && status < 300;

const statusSummary = (byStatus: Map<string, number>) =>
  [...byStatus.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status}×${count}`)
    .join(" ");

/** Creates `count` orders for `itemId`'s provider through `origin`, `concurrency` at a time, retrying with the key. */
const createOrders = async (
  origin: string,
  members: Member[],
  itemId: string,
  count: number,
  concurrency: number,
) => {
  const records: KeyRecord[] = Array.from({ length: count }, (_, index) => {
    const key = `proof-${randomUUID()}`;

    return {
      key,
      member: members[index % members.length] as Member,
      body: JSON.stringify({ menu_item_id: itemId, quantity: 1, notes: key }),
      sent: 0,
      statuses: [],
      orderIds: new Set<string>(),
    };
  });
  let next = 0;
  const lane = async () => {
    while (next < records.length) {
      const found = records[next] as KeyRecord;
      next += 1;
      found.sent += 1;
      const response = await fetch(`${origin}/api/v1/orders`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${found.member.token}`,
          "idempotency-key": found.key,
        },
        body: found.body,
      }).catch(() => undefined);
      const text = (await response?.text()) ?? "";
      if (response) {
        found.statuses.push(response.status);
        if (isOk(response.status)) {
          const id = (JSON.parse(text) as { data?: { id?: string } }).data?.id;
          if (id) {
            found.orderIds.add(id);
          }
        }
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const retries = await retryUnanswered(origin, records);

  return { records, retries };
};

export const runProof = async (options: ProofOptions): Promise<ProofReport> => {
  const started = Date.now();
  const log = options.log ?? (() => {});
  for (const file of [apiMain, apiCli, workerMain]) {
    if (!existsSync(file)) {
      throw new Error(`${path.relative(repo, file)} is missing: build first (\`pnpm proof\` does)`);
    }
  }
  const nginxBinary = findNginx(options.nginx);
  if (!nginxBinary) {
    throw new Error("nginx is not installed (set PROOF_NGINX to its binary)");
  }
  const connections = options.connections ?? 16;
  const loadSeconds = options.loadSeconds ?? 5;

  const server = new URL(options.serverUrl);
  const databaseName = `agora_proof_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const databaseUrl = new URL(server.toString());
  databaseUrl.pathname = `/${databaseName}`;
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${databaseName}"`);
  const dir = mkdtempSync(path.join(tmpdir(), "agora-proof-"));
  const processes: Managed[] = [];
  const client = new pg.Client({ connectionString: databaseUrl.toString(), application_name: "agora-proof" });
  let failed = true;
  try {
    const baseEnv = {
      PATH: process.env.PATH ?? "",
      APP_ENV: "development",
      DATABASE_URL: databaseUrl.toString(),
      TOKEN_SECRET,
      LOG_LEVEL: "warn",
    };
    for (const verb of ["migrate", "seed"]) {
      const result = spawnSync(process.execPath, [apiCli, verb], {
        env: { ...baseEnv, DATA_DIR: path.join(dir, "cli") },
        encoding: "utf8",
      });
      if (result.status !== 0) {
        throw new Error(`agora ${verb} failed: ${result.stdout}${result.stderr}`);
      }
    }
    await client.connect();
    const world = await seedWorld(client, TOKEN_SECRET, { members: 40, conversations: 10 });

    const apiPorts = [await freePort(), await freePort()];
    const apiEnv = (index: number) => ({
      ...baseEnv,
      HOST: "127.0.0.1",
      PORT: String(apiPorts[index]),
      DATA_DIR: path.join(dir, `api-${index + 1}`),
      DATABASE_POOL_MAX: "6",
      WORKER: "off",
      READINESS_CHECKS: "enabled",
      SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
      ...LIMITS_OUT_OF_REACH,
      TRUST_PROXY: "true",
    });
    const startApi = (index: number) => {
      const api = startManaged(`api-${index + 1}`, [process.execPath, apiMain], apiEnv(index), {
        dir,
        cwd: repo,
      });
      processes.push(api);

      return api;
    };
    const workerEnv = (index: number) => ({
      ...baseEnv,
      DATA_DIR: path.join(dir, `worker-${index + 1}`),
      DATABASE_POOL_MAX: "4",
      // Two workers on one host: each health port is any free one.
      WORKER_HEALTH_PORT: "0",
      OUTBOX_LEASE_SECONDS: String(LEASE_SECONDS),
      PUSH_TIMEOUT_MS: "1000",
      // A delivery held by the kill phase's lock waits instead of timing out.
      DATABASE_STATEMENT_TIMEOUT_MS: "20000",
    });
    const startWorker = (index: number) => {
      const worker = startManaged(`worker-${index + 1}`, [process.execPath, workerMain], workerEnv(index), {
        dir,
        cwd: repo,
      });
      processes.push(worker);

      return worker;
    };
    const apis = [startApi(0), startApi(1)];
    const workers = [startWorker(0), startWorker(1)];
    const apiUrl = (index: number) => `http://127.0.0.1:${apiPorts[index]}`;
    const balancerPort = await freePort();
    const nginx = startNginx(nginxBinary, {
      source: readFileSync(path.join(repo, "infra/nginx.conf"), "utf8"),
      upstreams: apiPorts,
      port: balancerPort,
      dir,
    });
    processes.push(nginx);
    const balancer = `http://127.0.0.1:${balancerPort}`;
    await Promise.all(apis.map((api, index) => waitFor200(`${apiUrl(index)}/ready`, api)));
    await waitFor200(`${balancer}/ready`, nginx);
    log(`proof: 2 APIs, 2 workers, nginx on ${balancer}; database ${databaseName}`);

    const rows: PhaseRow[] = [];
    const notes: string[] = [];

    // 1. Idempotent orders under load, with replays racing their originals.
    log(
      `proof: orders with Idempotency-Keys for ${loadSeconds} s (${connections} connections, 30% replays)…`,
    );
    const first = await loadOrders({
      origin: balancer,
      members: world.members,
      provider: world.busy,
      connections,
      until: sleep(loadSeconds * 1000),
      replayShare: 0.3,
    });
    const firstRetries = await retryUnanswered(balancer, first.records.values());
    const firstCheck = await checkOrders(client, first.records.values());
    const replays = first.sent - first.records.size;
    rows.push({
      phase: "orders, Idempotency-Key (replays)",
      requests: first.sent + firstRetries,
      ok: [...first.records.values()].reduce((sum, found) => sum + found.statuses.filter(isOk).length, 0),
      retries: firstRetries,
      duplicates: firstCheck.duplicates,
      lost: firstCheck.lost,
      note: `${firstCheck.keys} keys, ${replays} replayed sends, ${firstCheck.orders} orders, ${firstCheck.orders * 2} inbox rows expected; during load ${statusSummary(first.byStatus)}`,
    });

    // 2. Chat: posted to API 1, received on API 2's sockets.
    log("proof: chat across processes…");
    const chat = await proveChat({
      client,
      world,
      sendVia: apiUrl(0),
      listenOn: apiUrl(1),
      perConversation: 15,
      concurrency: 8,
    });
    rows.push({
      phase: "chat, API 1 → sockets on API 2",
      requests: chat.requests,
      ok: chat.ok,
      retries: chat.retries,
      duplicates: chat.duplicates,
      lost: chat.lost,
      note: `${chat.sockets} sockets, each frame counted by client_message_id`,
    });

    // 3. Rolling restart under load.
    log("proof: rolling restart under load…");
    const exits: (number | null)[] = [];
    const restart = async () => {
      await sleep(1_500);
      for (const index of [0, 1]) {
        const old = apis[index] as Managed;
        const signalledAt = Date.now();
        exits.push(await stop(old, "SIGTERM"));
        notes.push(`api-${index + 1}: SIGTERM → exit ${exits.at(-1)} in ${Date.now() - signalledAt} ms`);
        const fresh = startApi(index);
        apis[index] = fresh;
        await waitFor200(`${apiUrl(index)}/ready`, fresh);
        // nginx skips a replica that refused connections for fail_timeout; let it take the
        // restarted one back before the other goes.
        await sleep(index === 0 ? NGINX_FAIL_TIMEOUT_MS + 1_000 : 1_000);
      }
    };
    const rolling = await loadOrders({
      origin: balancer,
      members: world.members,
      provider: world.busy,
      connections,
      until: restart(),
      replayShare: 0,
    });
    const failedDuringRestart = [...rolling.records.values()].filter(
      (found) => !found.statuses.some(isOk),
    ).length;
    const rollingRetries = await retryUnanswered(balancer, rolling.records.values());
    const rollingCheck = await checkOrders(client, rolling.records.values());
    rows.push({
      phase: "rolling restart (SIGTERM, restart) ×2",
      requests: rolling.sent + rollingRetries,
      ok: [...rolling.records.values()].reduce((sum, found) => sum + found.statuses.filter(isOk).length, 0),
      retries: rollingRetries,
      duplicates: rollingCheck.duplicates,
      lost: rollingCheck.lost,
      note: `${rollingCheck.keys} keys, ${failedDuringRestart} without a 2xx under load; during load ${statusSummary(rolling.byStatus)}`,
    });

    // 4. kill -9 of a worker stuck mid-batch.
    log("proof: kill -9 of a worker mid-batch…");
    let created: Awaited<ReturnType<typeof createOrders>> | undefined;
    const kill = await killWorkerMidBatch({
      client,
      databaseUrl: databaseUrl.toString(),
      userId: world.held.userId,
      workers,
      createEvents: async () => {
        created = await createOrders(balancer, world.members, world.held.itemId, 40, 8);
      },
    });
    const killedIndex = workers.indexOf(kill.killed);
    workers[killedIndex] = startWorker(killedIndex);
    const killRecords = created?.records ?? [];
    const killCheck = await checkOrders(client, killRecords);
    const late = await client.query<{ late: number }>(
      `SELECT count(*)::int AS late FROM outbox_events
        WHERE kind = 'order.created' AND aggregate_id = ANY($1::text[]) AND processed_at >= $2`,
      [
        killRecords.flatMap((found) => [...found.orderIds]),
        new Date(kill.killedAt.getTime() + LEASE_SECONDS * 1000 - 250),
      ],
    );
    const redelivered = late.rows[0]?.late ?? 0;
    rows.push({
      phase: "worker kill -9 mid-batch",
      requests: killRecords.reduce((sum, found) => sum + found.sent, 0),
      ok: killRecords.filter((found) => found.statuses.some(isOk)).length,
      retries: redelivered + (created?.retries ?? 0),
      duplicates: killCheck.duplicates,
      lost: killCheck.lost,
      note:
        `${killRecords.length} orders for the held provider; ${kill.killed.name} killed while the workers held ` +
        `${kill.claimedAtKill} claimed events; retries = ${redelivered} deliveries re-claimed after the ` +
        `${LEASE_SECONDS} s lease + ${created?.retries ?? 0} HTTP retries`,
    });
    notes.push(
      `dead letters: ${firstCheck.dead + rollingCheck.dead + killCheck.dead}; SHUTDOWN_DELAY_MS=${SHUTDOWN_DELAY_MS}, OUTBOX_LEASE_SECONDS=${LEASE_SECONDS}`,
    );

    const exitsOk = exits.every((code) => code === 0);
    if (!exitsOk) {
      notes.push(`an API did not exit 0 on SIGTERM: ${exits.join(", ")}`);
    }
    const ok =
      exitsOk &&
      rows.every((row) => row.duplicates === 0 && row.lost === 0) &&
      firstCheck.dead + rollingCheck.dead + killCheck.dead === 0;
    failed = !ok;

    return { rows, notes, ok, seconds: (Date.now() - started) / 1000 };
  } finally {
    const exited = processes.map((managed) => stop(managed, "SIGTERM"));
    await Promise.race([Promise.all(exited), sleep(15_000)]);
    for (const managed of processes) {
      managed.child.kill("SIGKILL");
    }
    if (failed) {
      for (const managed of processes) {
        log(`--- ${managed.name} (last lines)\n${managed.tail(15)}`);
      }
    }
    await client.end().catch(() => {});
    await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`).catch(() => {});
    await admin.end();
    if (failed || options.keepLogs) {
      log(`proof: logs kept in ${dir}`);
    } else {
      rmSync(dir, { recursive: true, force: true });
    }
  }
};

const fmt = (value: number) => value.toLocaleString("en-US");

/** The report as the table the script prints. */
export const formatProof = (report: ProofReport): string => {
  const header = ["phase", "requests", "2xx", "retries", "duplicates", "lost"];
  const total: PhaseRow = {
    phase: "total",
    requests: report.rows.reduce((sum, row) => sum + row.requests, 0),
    ok: report.rows.reduce((sum, row) => sum + row.ok, 0),
    retries: report.rows.reduce((sum, row) => sum + row.retries, 0),
    duplicates: report.rows.reduce((sum, row) => sum + row.duplicates, 0),
    lost: report.rows.reduce((sum, row) => sum + row.lost, 0),
    note: "",
  };
  const lines = [...report.rows, total].map((row) => [
    row.phase,
    fmt(row.requests),
    fmt(row.ok),
    fmt(row.retries),
    fmt(row.duplicates),
    fmt(row.lost),
  ]);
  const widths = header.map((title, index) =>
    Math.max(title.length, ...lines.map((line) => (line[index] ?? "").length)),
  );
  const render = (cells: string[]) =>
    cells
      .map((cell, index) =>
        index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0),
      )
      .join("  ");
  const body = [
    render(header),
    render(widths.map((width) => "-".repeat(width))),
    ...lines.slice(0, -1).map(render),
    render(widths.map((width) => "-".repeat(width))),
    render(lines.at(-1) ?? []),
  ];

  return [
    ...body,
    "",
    ...report.rows.map((row) => `${row.phase}: ${row.note}`),
    ...report.notes,
    `${report.ok ? "PASS" : "FAIL"}: duplicates and lost must be 0 (${report.seconds.toFixed(0)} s)`,
    "",
  ].join("\n");
};
