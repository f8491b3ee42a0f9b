// The outbox drain benchmark (part of `pnpm bench`, BENCH_ONLY matching "outbox drain"): on a
// database of its own, it fills the outbox with pending order.created events (each one inbox row
// for the provider and one for the ordering member, as POST /orders writes them) and measures
// how fast they are delivered into the inbox by: the API process with its embedded worker; one
// `apps/worker` process; two of them. Beside each, the raw reference (drain-reference.ts: the same
// statements in the same batches from plain pg loops, a process per drainer process with as many
// loops as the worker runs) drains the same backlog in the same run, so each figure reads as a
// ratio on a shared machine.
// BENCH_DRAIN_EVENTS (100,000) sets the backlog, BENCH_DRAIN_ONLY (a regex) picks drainers,
// OUTBOX_* settings in the bench's environment reach every drainer, and BENCH_DRAIN_LEVERS=1 adds
// a drain per lever (statement shapes on one raw loop, batch size and loops on the worker).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sleep } from "@agora/testing/eventually";
import { freePort } from "@agora/testing/processes";
import pg from "pg";
import { v7 } from "uuid";
import { type Managed, startManaged, stop, waitFor200 } from "./common.ts";

type DrainRow = {
  drainer: string;
  processes: number;
  events: number;
  inboxRows: number;
  dead: number;
  seconds: number;
  eventsPerSecond: number;
  reference: { seconds: number; eventsPerSecond: number };
};

export type DrainResult = { rows: DrainRow[]; table: string; note: string };

const env = process.env;
const EVENTS = Number(env.BENCH_DRAIN_EVENTS ?? 100_000);
const PROVIDERS = 200;
const CUSTOMERS = 2_000;
const DRAIN_TIMEOUT_MS = 600_000;

const hasTaskset = spawnSync("taskset", ["-c", "0", "true"]).status === 0;
/** Drainer i runs on CPU i mod 2 (its reference loop i too); PostgreSQL is not pinned. */
const pinned = (index: number, args: string[]) =>
  hasTaskset ? ["taskset", "-c", String(index % 2), ...args] : args;

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

const withDatabase = async <T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

/** Empties the outbox and the inbox, then writes `EVENTS` pending order.created events. */
const prefill = (url: string, providers: string[], customers: string[]) =>
  withDatabase(url, async (client) => {
    await client.query("TRUNCATE notifications, outbox_events");
    await client.query(
      `INSERT INTO outbox_events (id, kind, aggregate_type, aggregate_id, payload, attempts, available_at, created_at)
       SELECT gen_random_uuid(), 'order.created', 'order', o.id,
              jsonb_build_object('order_id', o.id, 'provider_user_id', ($2::uuid[])[1 + i % cardinality($2::uuid[])],
                                 'customer_id', ($3::uuid[])[1 + i % cardinality($3::uuid[])],
                                 'item_name', 'Shoyu ramen', 'quantity', 1 + i % 3),
              0, now(), now()
         FROM generate_series(1, $1::int) AS i, LATERAL (SELECT gen_random_uuid() AS id, i AS n) AS o`,
      [EVENTS, providers, customers],
    );
    await client.query("VACUUM ANALYZE outbox_events");
    await client.query("ANALYZE notifications");
  });

/** Waits until no event is pending, then reads what was delivered and over how long. */
const measure = (url: string) =>
  withDatabase(url, async (client) => {
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    for (;;) {
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM outbox_events WHERE processed_at IS NULL AND dead_at IS NULL",
      );
      if ((rows[0]?.n ?? 0) === 0 || Date.now() > deadline) {
        break;
      }
      await sleep(200);
    }
    const { rows } = await client.query<{ events: number; dead: number; seconds: number; inbox: number }>(
      `SELECT count(*) FILTER (WHERE processed_at IS NOT NULL)::int AS events,
              count(*) FILTER (WHERE dead_at IS NOT NULL)::int AS dead,
              COALESCE(extract(epoch FROM max(processed_at) - min(processed_at)), 0)::float8 AS seconds,
              (SELECT count(*)::int FROM notifications) AS inbox
         FROM outbox_events`,
    );
    const row = rows[0] ?? { events: 0, dead: 0, seconds: 0, inbox: 0 };

    return { ...row, eventsPerSecond: row.seconds > 0 ? row.events / row.seconds : 0 };
  });

/** Prefills, starts `start()`'s processes, waits for the backlog to drain, stops them. */
const drainWith = async (
  url: string,
  users: { providers: string[]; customers: string[] },
  start: () => Promise<Managed[]>,
) => {
  await prefill(url, users.providers, users.customers);
  const processes = await start();
  try {
    return await measure(url);
  } finally {
    await Promise.all(processes.map((process) => stop(process)));
  }
};

export const runDrain = async ({
  adminUrl,
  repo,
  baseEnv,
  orderRate,
}: {
  /** A PostgreSQL URL allowed to create databases. */
  adminUrl: string;
  repo: string;
  /** The environment the bench's API runs with (its DATABASE_URL and PORT are replaced). */
  baseEnv: Record<string, string | undefined>;
  /** POST /orders req/s measured in this run, when it was. */
  orderRate: number | undefined;
}): Promise<DrainResult> => {
  const databaseName = `agora_drain_${Date.now()}`;
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${databaseName}`;
  const url = databaseUrl.toString();
  const dir = mkdtempSync(path.join(tmpdir(), "agora-drain-"));
  await withDatabase(adminUrl, (client) => client.query(`CREATE DATABASE "${databaseName}"`));
  const childEnv = (extra: Record<string, string>): Record<string, string> => {
    const merged: Record<string, string> = {};
    // OUTBOX_* settings of the bench's own environment reach every drainer (levers to measure).
    const outbox = Object.fromEntries(Object.entries(env).filter(([key]) => key.startsWith("OUTBOX_")));
    for (const [key, value] of Object.entries({ ...baseEnv, ...outbox, ...extra })) {
      if (value !== undefined) {
        merged[key] = value;
      }
    }

    return merged;
  };
  const node = process.execPath;
  let serial = 0;
  const api = async (worker: "embedded" | "off", entry = "main.js") => {
    const port = await freePort();
    serial += 1;
    const child = startManaged(
      `api-${serial}`,
      pinned(0, [node, path.join(repo, "apps/api/dist", entry)]),
      childEnv({ DATABASE_URL: url, PORT: String(port), WORKER: worker }),
      { dir, cwd: repo },
    );
    await waitFor200(`http://127.0.0.1:${port}/ready`, child, 120_000);

    return child;
  };
  const workers = (count: number, extra: Record<string, string> = {}) =>
    Array.from({ length: count }, (_, index) => {
      serial += 1;

      return startManaged(
        `worker-${serial}`,
        pinned(index, [node, path.join(repo, "apps/worker/dist/main.js")]),
        childEnv({ DATABASE_URL: url, WORKER_HEALTH_PORT: "0", ...extra }),
        { dir, cwd: repo },
      );
    });
  // Reference processes: one per drainer process, each with the worker's loops unless `loops` says.
  const references = (count: number, batchSize = env.OUTBOX_BATCH_SIZE ?? "", statements = "", loops = "") =>
    Array.from({ length: count }, (_, index) => {
      serial += 1;

      return startManaged(
        `reference-${serial}`,
        pinned(index, [
          node,
          "--import",
          "./bench/src/resolve-ts.ts",
          "bench/src/drain-reference.ts",
          batchSize,
          loops,
          statements,
        ]),
        childEnv({ DATABASE_URL: url }),
        { dir, cwd: repo },
      );
    });

  const rows: DrainRow[] = [];
  const levers: { lever: string; eventsPerSecond: number; dead: number; inboxRows: number }[] = [];
  try {
    // Migrates the database, then leaves it to the drainers.
    await stop(await api("off", "start.js"));
    const users = await withDatabase(url, async (client) => {
      const providers = Array.from({ length: PROVIDERS }, () => v7());
      const customers = Array.from({ length: CUSTOMERS }, () => v7());
      const all = [...providers, ...customers];
      await client.query(
        `INSERT INTO users (id, email, username, display_name, password_hash, role, status, email_verified_at, created_at, updated_at)
         SELECT id, 'drain-' || id || '@example.com', 'drain' || right(id::text, 12), 'Drain User', '', 'member', 'active', now(), now(), now()
           FROM unnest($1::uuid[]) AS t(id)`,
        [all],
      );

      return { providers, customers };
    });
    const variants: { drainer: string; processes: number; start: () => Promise<Managed[]> }[] = [
      { drainer: "embedded worker (API process)", processes: 1, start: async () => [await api("embedded")] },
      { drainer: "apps/worker ×1", processes: 1, start: async () => workers(1) },
      { drainer: "apps/worker ×2", processes: 2, start: async () => workers(2) },
    ];
    const pick = env.BENCH_DRAIN_ONLY ? new RegExp(env.BENCH_DRAIN_ONLY, "i") : undefined;
    for (const variant of variants.filter((v) => !pick || pick.test(v.drainer))) {
      process.stderr.write(`  outbox drain, ${variant.drainer}:`);
      const agora = await drainWith(url, users, variant.start);
      process.stderr.write(` ${fmt(agora.eventsPerSecond)} events/s;`);
      const reference = await drainWith(url, users, async () => references(variant.processes));
      process.stderr.write(` reference ${fmt(reference.eventsPerSecond)} events/s\n`);
      rows.push({
        drainer: variant.drainer,
        processes: variant.processes,
        events: agora.events,
        inboxRows: agora.inbox,
        dead: agora.dead,
        seconds: agora.seconds,
        eventsPerSecond: agora.eventsPerSecond,
        reference: { seconds: reference.seconds, eventsPerSecond: reference.eventsPerSecond },
      });
    }
    if (env.BENCH_DRAIN_LEVERS) {
      // One drain per lever, the raw loop's statement shapes first, then the worker's settings.
      const leverRuns: { lever: string; start: () => Promise<Managed[]> }[] = [
        {
          lever: "reference, batch 50: inbox INSERT per event, mark on its own",
          start: async () => references(1, "50", "per-event", "1"),
        },
        {
          lever: "reference, batch 50: one inbox INSERT per batch",
          start: async () => references(1, "50", "batch", "1"),
        },
        {
          lever: "reference, batch 200: one inbox INSERT per batch",
          start: async () => references(1, "200", "batch", "1"),
        },
        {
          lever: "reference, batch 200: + mark folded into the next claim",
          start: async () => references(1, "200", "batch+fold", "1"),
        },
        {
          lever: "reference, batch 500: + mark folded into the next claim",
          start: async () => references(1, "500", "batch+fold", "1"),
        },
        ...[50, 200, 500].map((size) => ({
          lever: `apps/worker, OUTBOX_BATCH_SIZE=${size}, OUTBOX_LOOPS=1`,
          start: async () => workers(1, { OUTBOX_BATCH_SIZE: String(size), OUTBOX_LOOPS: "1" }),
        })),
        ...[2, 4].map((loops) => ({
          lever: `apps/worker, OUTBOX_BATCH_SIZE=200, OUTBOX_LOOPS=${loops}`,
          start: async () => workers(1, { OUTBOX_BATCH_SIZE: "200", OUTBOX_LOOPS: String(loops) }),
        })),
        {
          lever: "apps/worker, OUTBOX_BATCH_SIZE=200, OUTBOX_LOOPS=2, DATABASE_POOL_MAX=2",
          start: async () =>
            workers(1, { OUTBOX_BATCH_SIZE: "200", OUTBOX_LOOPS: "2", DATABASE_POOL_MAX: "2" }),
        },
      ];
      for (const run of leverRuns) {
        process.stderr.write(`  outbox lever, ${run.lever}:`);
        const result = await drainWith(url, users, run.start);
        process.stderr.write(` ${fmt(result.eventsPerSecond)} events/s\n`);
        levers.push({
          lever: run.lever,
          eventsPerSecond: result.eventsPerSecond,
          dead: result.dead,
          inboxRows: result.inbox,
        });
      }
    }
  } finally {
    await withDatabase(adminUrl, (client) =>
      client.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`),
    ).catch(() => {});
    if (!env.BENCH_DRAIN_KEEP_LOGS) {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const header = ["outbox drain", "events", "inbox rows", "dead", "s", "events/s", "ref events/s", "ratio"];
  if (orderRate) {
    header.push("× POST /orders");
  }
  const lines = rows.map((row) => {
    const cells = [
      row.drainer,
      fmt(row.events),
      fmt(row.inboxRows),
      fmt(row.dead),
      fmt(row.seconds, 1),
      fmt(row.eventsPerSecond),
      fmt(row.reference.eventsPerSecond),
      `${fmt((row.eventsPerSecond / Math.max(row.reference.eventsPerSecond, 1)) * 100)}%`,
    ];
    if (orderRate) {
      cells.push(`${fmt(row.eventsPerSecond / orderRate, 1)}×`);
    }

    return cells;
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => (line[i] ?? "").length)));
  const render = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ");
  const table = [render(header), render(widths.map((w) => "-".repeat(w))), ...lines.map(render)].join("\n");
  const note = `Outbox drain: ${fmt(EVENTS)} pending order.created events (2 inbox rows each) per run; events/s = events delivered ÷ (last − first processed_at); reference = drain-reference.ts, the same statements in the same batches from plain pg loops (a process per drainer process, as many loops as the worker's OUTBOX_LOOPS); drainer i ${hasTaskset ? "pinned to CPU i mod 2" : "unpinned"}, PostgreSQL unpinned${orderRate ? `; × POST /orders = events/s ÷ the ${fmt(orderRate)} req/s of POST /orders in this run` : ""}.`;

  const leverHeader = ["lever (BENCH_DRAIN_LEVERS)", "events/s", "inbox rows", "dead"];
  const leverLines = levers.map((lever) => [
    lever.lever,
    fmt(lever.eventsPerSecond),
    fmt(lever.inboxRows),
    fmt(lever.dead),
  ]);
  const leverWidths = leverHeader.map((h, i) =>
    Math.max(h.length, ...leverLines.map((line) => (line[i] ?? "").length)),
  );
  const renderLever = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(leverWidths[i] ?? 0) : cell.padStart(leverWidths[i] ?? 0)))
      .join("  ");
  const leverTable = levers.length
    ? `\n\n${[renderLever(leverHeader), renderLever(leverWidths.map((w) => "-".repeat(w))), ...leverLines.map(renderLever)].join("\n")}`
    : "";

  return { rows, table: `${table}${leverTable}`, note };
};
