// uncommitted: quick RSS probe. node bench/src/_probe.ts [entry] ; env PROBE_NODE_OPTIONS, PROBE_ENV json
import { spawn, spawnSync } from "node:child_process";
import pg from "pg";
import { rssMiB, watchRss } from "./memory.ts";
import { seedMarketplace } from "./seed-marketplace.ts";

const repo = new URL("../..", import.meta.url).pathname;
const dbUrl = "postgresql://postgres@127.0.0.1:5432/memprobe";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const admin = new pg.Client({ connectionString: "postgresql://postgres@127.0.0.1:5432/postgres" });
await admin.connect();
const exists = (await admin.query("SELECT 1 FROM pg_database WHERE datname='memprobe'")).rowCount;
if (!exists) await admin.query("CREATE DATABASE memprobe");
await admin.end();
const env = {
  PATH: process.env.PATH, NODE_OPTIONS: process.env.PROBE_NODE_OPTIONS ?? "", APP_ENV: "development", HOST: "127.0.0.1", PORT: "18999",
  DATABASE_URL: dbUrl, DATA_DIR: "/tmp/memprobe-data", TOKEN_SECRET: "bench-secret-bench-secret-bench-secret-0123456789",
  LOG_LEVEL: "info", WORKER: "embedded", LISTING_PLAN_PRICE_AMOUNT: "990", LISTING_PLAN_CURRENCY: "USD", LISTING_PLAN_DURATION_DAYS: "30",
  ...JSON.parse(process.env.PROBE_ENV ?? "{}"),
};
const entry = process.argv[2] ?? (exists ? "apps/api/dist/main.js" : "apps/api/dist/start.js");
const api = spawn("taskset", ["-c", "0", process.execPath, ...(process.env.PROBE_ARGS ? process.env.PROBE_ARGS.split(" ") : []), entry], { cwd: repo, env, stdio: ["ignore", "ignore", "inherit"] });
for (let i = 0; ; i++) { try { if ((await fetch("http://127.0.0.1:18999/ready")).ok) break; } catch {} await sleep(100); if (i > 600) throw new Error("no ready"); }
const c = new pg.Client({ connectionString: dbUrl }); await c.connect();
let id = (await c.query("SELECT id FROM listings WHERE status='active' AND subscription_expires_at > now() ORDER BY id LIMIT 1 OFFSET 500")).rows[0]?.id;
if (!id) { const s = await seedMarketplace(c); id = s.visibleListingIds[Math.floor(s.visibleListingIds.length / 2)]; }
await c.end();
await sleep(3000);
const idle = rssMiB(api.pid);
const w = watchRss(api.pid);
w.reset();
const spec = { url: `http://127.0.0.1:18999/api/v1/listings/${id}`, connections: 50, durationSeconds: 5, warmupSeconds: 1 };
const r = spawnSync("taskset", ["-c", "1", process.execPath, `${repo}/bench/src/load.ts`, JSON.stringify(spec)], { encoding: "utf8" });
const res = JSON.parse(r.stdout.trim().split("\n").pop() ?? "{}");
const peak = w.peak();
await sleep(2000);
const after = rssMiB(api.pid);
await w.stop();
api.kill("SIGTERM");
console.log(JSON.stringify({ idle: idle?.toFixed(1), peak: peak?.toFixed(1), after: after?.toFixed(1), rps: Math.round(res.requestsPerSecond), s: res.statusCounts }));
