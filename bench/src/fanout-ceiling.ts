// The realtime fan-out's ceiling (docs/performance.md, "The realtime fan-out's ceiling"): the most
// chat sends per second with the NOTIFY in the send statement (REALTIME_FANOUT=postgres) and
// without it (REALTIME_FANOUT=nats: the signal is published to NATS after the commit), through 1
// and 2 API processes on one PostgreSQL, and pgbench of the send statement alone in both shapes
// (the database's own ceiling, no HTTP). On a database of its own; the NATS rows are skipped when
// NATS_URL (default nats://127.0.0.1:4222) does not answer.
//
// Run alone: `pnpm turbo run build --filter=@agora/api && node bench/src/fanout-ceiling.ts`
// (BENCH_DATABASE_URL: a PostgreSQL URL allowed to create databases; BENCH_CEILING_DURATION
// seconds per row (10), BENCH_CEILING_ROUNDS (3, the median is reported), BENCH_CEILING_CONNECTIONS
// in all (64), BENCH_CEILING_ONLY a regex of rows).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { natsAnswers } from "@agora/db/nats-probe";
import { freePort } from "@agora/testing/processes";
import pg from "pg";
import { chatWorld } from "./chat.ts";
import {
  API_NODE_FLAGS,
  fmt,
  hasTaskset,
  type Managed,
  pinned,
  startManaged,
  stop,
  waitFor200,
} from "./common.ts";

const env = process.env;
const DURATION = Number(env.BENCH_CEILING_DURATION ?? 10);
const WARMUP = 2;
const CONNECTIONS = Number(env.BENCH_CEILING_CONNECTIONS ?? 64);
const CONVERSATIONS = 200;
const ROUNDS = Math.max(1, Number(env.BENCH_CEILING_ROUNDS ?? 3));
const NATS_URL = env.NATS_URL ?? "nats://127.0.0.1:4222";
const TOKEN_SECRET = "bench-secret-bench-secret-bench-secret-0123456789";
const only = env.BENCH_CEILING_ONLY ? new RegExp(env.BENCH_CEILING_ONLY, "i") : undefined;

type FanOut = "postgres" | "nats";
type Row = {
  row: string;
  fanOut: FanOut;
  /** API processes serving the load (0: pgbench of the statement alone). */
  processes: number;
  connections: number;
  sendsPerSecond: number;
  p50: number | undefined;
  p99: number | undefined;
  failed: number;
};

type LoadResult = {
  totalRequests: number;
  p50: number;
  p99: number;
  statusCounts: Partial<Record<"2xx" | "4xx" | "5xx" | "errors" | "timeouts", number>>;
};

/** bench/src/load.ts (autocannon) in a child process, resolving its result. */
const load = (repo: string, cpu: number, spec: Record<string, unknown>) =>
  new Promise<LoadResult>((resolve, reject) => {
    const [file = process.execPath, ...args] = pinned(cpu, [
      process.execPath,
      path.join(repo, "bench/src/load.ts"),
      JSON.stringify(spec),
    ]);
    const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (data) => {
      out += String(data);
    });
    child.stderr.on("data", (data) => {
      err += String(data);
    });
    child.on("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split("\n").pop() ?? "{}") as LoadResult)
        : reject(new Error(`load generator failed: ${err}`)),
    );
  });

/**
 * The send statement as the repository sends it in `fanOut`'s shape (captured from
 * createMessageRepository, run by a child with the TypeScript resolve hook), its parameters
 * replaced for pgbench: one of the 200 conversations at random (table fanout_ceiling_conv).
 */
const pgbenchScript = (repo: string, fanOut: FanOut): string => {
  const capture = `
    const { createMessageRepository } = await import("./packages/db/src/repositories/chat/messages.repository.ts");
    let text = "";
    const db = { query: async (sql) => { text = sql; return { rows: [], rowCount: 0 }; }, exec: async () => {} };
    const ids = { next: () => "00000000-0000-0000-0000-000000000000" };
    const sink = ${fanOut === "nats" ? "{ publish() {} }" : "undefined"};
    await createMessageRepository(db, ids, sink).send(
      { id: "x", conversationId: "x", senderId: "x", body: "", messageType: "text", clientMessageId: null, createdAt: new Date() },
      { kind: "k", aggregateType: "a", aggregateId: "x", payload: {} },
    );
    process.stdout.write(text);`;
  const result = spawnSync(
    process.execPath,
    ["--import", "./bench/src/resolve-ts.ts", "--input-type=module", "-e", capture],
    { cwd: repo, encoding: "utf8" },
  );
  if (result.status !== 0 || !result.stdout.includes("chat_messages")) {
    throw new Error(`could not capture the send statement: ${result.stderr}`);
  }
  const conv = "(SELECT id FROM fanout_ceiling_conv WHERE n = :n)";
  const params: Record<number, string> = {
    1: conv,
    2: "(SELECT sender FROM fanout_ceiling_conv WHERE n = :n)",
    3: "gen_random_uuid()",
    4: "'Are we still on for dinner tonight?'",
    5: "'text'",
    6: "NULL::text",
    7: "now()",
    8: "gen_random_uuid()",
    9: "'message.sent'",
    10: "'conversation'",
    11: `${conv}::text`,
    12: `'{"bench": true}'`,
  };
  const statement = result.stdout.replace(/\$(\d+)/g, (_, n: string) => params[Number(n)] ?? `$${n}`);

  return `\\set n random(1, ${CONVERSATIONS})\n${statement.replace(/\s+/g, " ").trim()};\n`;
};

const pgbench = (url: string, script: string, dir: string, clients: number): Row["sendsPerSecond"] => {
  const file = path.join(dir, `send-${Date.now()}.sql`);
  writeFileSync(file, script);
  const { hostname, port, pathname, username } = new URL(url);
  const result = spawnSync(
    "pgbench",
    [
      "-n",
      "-h",
      hostname,
      "-p",
      port || "5432",
      "-U",
      decodeURIComponent(username || "postgres"),
      "-c",
      String(clients),
      "-j",
      "2",
      "-T",
      String(DURATION),
      "-f",
      file,
      pathname.slice(1),
    ],
    { encoding: "utf8", env: { ...env, PGPASSWORD: env.PGPASSWORD } },
  );
  const tps = /tps = ([\d.]+)/.exec(result.stdout)?.[1];
  if (result.status !== 0 || tps === undefined) {
    throw new Error(`pgbench failed: ${result.stderr || result.stdout}`);
  }

  return Number(tps);
};

/**
 * The suite: its table (with the run's note) and the rows as JSON.
 * @public (run.ts's full run calls it; alone it runs as a script, below)
 */
export const runFanOutCeiling = async (
  options: { adminUrl?: string; repo?: string } = {},
): Promise<{ table: string; json: unknown }> => {
  const adminUrl =
    options.adminUrl ?? env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const repo = options.repo ?? fileURLToPath(new URL("../..", import.meta.url));
  const databaseName = `agora_fanout_ceiling_${Date.now()}`;
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${databaseName}`;
  const url = databaseUrl.toString();
  const dir = mkdtempSync(path.join(tmpdir(), "agora-fanout-ceiling-"));
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${databaseName}"`);
  const nats = await natsAnswers(NATS_URL);
  const measured: Row[] = [];
  const notes: string[] = [];
  const running: Managed[] = [];
  const baseEnv = {
    PATH: env.PATH ?? "",
    NODE_OPTIONS: "--max-semi-space-size=4",
    APP_ENV: "development",
    HOST: "127.0.0.1",
    DATABASE_URL: url,
    DATABASE_POOL_MAX: env.BENCH_POOL_MAX ?? "10",
    DATA_DIR: dir,
    TOKEN_SECRET,
    LOG_LEVEL: "warn",
    WORKER: "off",
    RATE_LIMIT_CHAT_MESSAGES_PER_HOUR: "1000000",
  };
  const api = async (serial: number, extra: Record<string, string>, entry = "main.js") => {
    const port = await freePort();
    const child = startManaged(
      `api-${serial}`,
      pinned(0, [process.execPath, ...API_NODE_FLAGS, path.join(repo, "apps/api/dist", entry)]),
      { ...baseEnv, PORT: String(port), ...extra },
      { dir, cwd: repo },
    );
    running.push(child);
    await waitFor200(`http://127.0.0.1:${port}/ready`, child, 120_000);

    return { child, url: `http://127.0.0.1:${port}` };
  };
  try {
    // Migrates the database, then leaves it to the rows.
    await stop((await api(0, {}, "start.js")).child);
    const world = await chatWorld({ databaseUrl: url, tokenSecret: TOKEN_SECRET }, CONVERSATIONS);
    const paths = world.conversationIds.map((id) => `/api/v1/chat/conversations/${id}/messages`);
    const fanOuts: FanOut[] = nats ? ["postgres", "nats"] : ["postgres"];
    if (!nats) {
      notes.push(`NATS rows skipped: nothing answers at ${NATS_URL}`);
    }

    // The database's own ceiling: the send statement alone, from pgbench.
    const convClient = new pg.Client({ connectionString: url });
    await convClient.connect();
    await convClient.query(
      `CREATE TABLE fanout_ceiling_conv AS
         SELECT row_number() OVER (ORDER BY id)::int AS n, id, $2::uuid AS sender FROM unnest($1::uuid[]) AS t(id)`,
      [world.conversationIds, world.sender.id],
    );
    await convClient.query("CREATE UNIQUE INDEX ON fanout_ceiling_conv (n)");
    await convClient.end();
    const scripts = new Map(fanOuts.map((fanOut) => [fanOut, pgbenchScript(repo, fanOut)]));
    const pgbenchName = (fanOut: FanOut) =>
      `pgbench: send statement ${fanOut === "postgres" ? "with pg_notify" : "without (payload returned)"}`;
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const fanOut of round % 2 === 0 ? fanOuts : [...fanOuts].reverse()) {
        const name = pgbenchName(fanOut);
        if (only && !only.test(name)) {
          continue;
        }
        process.stderr.write(`  ${name} (round ${round + 1})…\n`);
        measured.push({
          row: name,
          fanOut,
          processes: 0,
          connections: CONNECTIONS,
          sendsPerSecond: pgbench(url, scripts.get(fanOut) ?? "", dir, CONNECTIONS),
          p50: undefined,
          p99: undefined,
          failed: 0,
        });
      }
    }

    // HTTP sends through 1 and 2 API processes.
    let serial = 0;
    const httpRows = fanOuts.flatMap((fanOut) => [1, 2].map((processes) => ({ fanOut, processes })));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const { fanOut, processes } of round % 2 === 0 ? httpRows : [...httpRows].reverse()) {
        const name = `HTTP sends, ${fanOut}, ${processes} API process${processes > 1 ? "es" : ""}`;
        if (only && !only.test(name)) {
          continue;
        }
        process.stderr.write(`  ${name} (round ${round + 1})…\n`);
        const extra: Record<string, string> =
          fanOut === "nats"
            ? { REALTIME_FANOUT: "nats", NATS_URL, NATS_SUBJECT: `agora.bench.${databaseName}` }
            : { REALTIME_FANOUT: "postgres" };
        const apis = [];
        for (let index = 0; index < processes; index += 1) {
          serial += 1;
          apis.push(await api(serial, extra));
        }
        try {
          const share = Math.max(1, Math.floor(CONNECTIONS / processes));
          const results = await Promise.all(
            apis.map((served, index) =>
              load(repo, 1, {
                url: `${served.url}${paths[0]}`,
                method: "POST",
                headers: {
                  "content-type": "application/json",
                  authorization: `Bearer ${world.sender.token}`,
                },
                body: JSON.stringify({ body: "Are we still on for dinner tonight?" }),
                // Each process its own half of the conversations' turns.
                paths: paths.filter((_, at) => at % processes === index),
                connections: share,
                durationSeconds: DURATION,
                warmupSeconds: WARMUP,
              }),
            ),
          );
          const ok = results.reduce((sum, result) => sum + (result.statusCounts["2xx"] ?? 0), 0);
          const failed = results.reduce(
            (sum, result) =>
              sum +
              (result.statusCounts["4xx"] ?? 0) +
              (result.statusCounts["5xx"] ?? 0) +
              (result.statusCounts.errors ?? 0) +
              (result.statusCounts.timeouts ?? 0),
            0,
          );
          measured.push({
            row: name,
            fanOut,
            processes,
            connections: share * processes,
            sendsPerSecond: ok / DURATION,
            p50: Math.max(...results.map((result) => result.p50)),
            p99: Math.max(...results.map((result) => result.p99)),
            failed,
          });
        } finally {
          await Promise.all(apis.map((served) => stop(served.child)));
        }
      }
    }
  } finally {
    await Promise.all(running.map((child) => (child.child.exitCode === null ? stop(child) : undefined)));
    await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`).catch(() => {});
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }

  // Each row's median round (rounds alternate the rows' order, so drift on a shared machine spreads).
  const rows = [...new Set(measured.map((row) => row.row))].flatMap((name) => {
    const runs = measured
      .filter((row) => row.row === name)
      .sort((a, b) => a.sendsPerSecond - b.sendsPerSecond);
    const median = runs[Math.floor(runs.length / 2)];

    return median ? [{ ...median, rounds: runs.map((run) => Math.round(run.sendsPerSecond)) }] : [];
  });
  const header = ["row", "conns", "sends/s", "p50 ms", "p99 ms", "failed", "rounds' sends/s"];
  const lines = rows.map((row) => [
    row.row,
    String(row.connections),
    fmt(row.sendsPerSecond),
    row.p50 === undefined ? "-" : fmt(row.p50, 1),
    row.p99 === undefined ? "-" : fmt(row.p99, 1),
    String(row.failed),
    row.rounds.map((n) => fmt(n)).join(" / "),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => (line[i] ?? "").length)));
  const render = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ");
  const note = `median of ${ROUNDS} rounds (alternating the rows' order) of ${DURATION}s per row after ${WARMUP}s warm-up, ${CONVERSATIONS} conversations of one sender, WORKER=off (the outbox fills; no delivery competes); ${hasTaskset ? "APIs on CPU 0, load on CPU 1, PostgreSQL unpinned" : "unpinned"}; load average at the end ${loadavg()
    .map((n) => n.toFixed(1))
    .join(" / ")} (1 / 5 / 15 min).${notes.length > 0 ? ` ${notes.join("; ")}.` : ""}`;
  const table = `${[render(header), render(widths.map((w) => "-".repeat(w))), ...lines.map(render)].join("\n")}\n\n${note}`;

  return { table, json: { rows, note } };
};

if (import.meta.main) {
  const { table } = await runFanOutCeiling();
  process.stdout.write(`\n${table}\n`);
}
