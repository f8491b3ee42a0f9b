// `pnpm soak`: a day in the app, for SOAK_MINUTES (30) at 70% of what the mix can take. Starts the
// built API (embedded worker) on a fresh PostgreSQL database with a local S3 store (s3rver), seeds
// the bench's marketplace and community plus 500 members in 250 conversations, each member holding
// a realtime socket on its conversation, then:
//   1. capacity: the mix driven closed-loop at rising concurrency; its best actions/s is the capacity;
//   2. warm-up (SOAK_WARMUP minutes, 2) and the soak (SOAK_MINUTES), open-loop at a constant arrival
//      rate of SOAK_LOAD (0.7) × capacity actions/s (SOAK_RATE sets it instead, skipping step 1);
//   3. the goals (docs/performance.md, "Soak"), checked on what was recorded per request and on
//      /metrics sampled every 5 s; the exit code is 1 when an enforced goal is missed.
// The per-minute series and the verdicts go to bench/results/soak-<timestamp>.json.
// SOAK_WORKER=process runs the outbox worker as its own process (apps/worker, on CPU 1 beside the
// driver) and the API with WORKER=off, as a deployment with worker pods does; the outbox lag is then
// read from the worker's /metrics. Default: the API's embedded worker.

import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { Role } from "@agora/domain/common/actor";
import { sleep } from "@agora/testing/eventually";
import { freePort } from "@agora/testing/processes";
import S3rver from "s3rver";
import sharp from "sharp";
import WebSocket from "ws";
import {
  API_NODE_FLAGS,
  apiArgs,
  apiEnv,
  createDatabase,
  hasTaskset,
  LIMITS_OUT_OF_REACH,
  repo,
  startNode,
  waitFor200,
} from "./common.ts";
import { withClient } from "./data.ts";
import { rssMiB } from "./memory.ts";
import { accessToken, insertUsers, seedCommunity } from "./seed-community.ts";
import { seedMarketplace } from "./seed-marketplace.ts";
import { lagP99, type MetricFigures, readMetrics } from "./soak-figures.ts";

const env = process.env;
const soakMinutes = Number(env.SOAK_MINUTES ?? 30);
const warmupMinutes = Number(env.SOAK_WARMUP ?? 2);
const loadShare = Number(env.SOAK_LOAD ?? 0.7);
const fixedRate = env.SOAK_RATE ? Number(env.SOAK_RATE) : undefined;
const SOCKETS = Number(env.SOAK_SOCKETS ?? 500);
const CONNECTIONS = Number(env.SOAK_CONNECTIONS ?? 64);
/** Drift and RSS goals are enforced on runs of 10 minutes or more, unless SOAK_STRICT says (1/0). */
const strict = env.SOAK_STRICT === undefined ? soakMinutes >= 10 : env.SOAK_STRICT === "1";
const adminUrl = env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const TOKEN_SECRET = "soak-secret-soak-secret-soak-secret-0123456789";
/** Actions in flight past which the driver stops starting new ones (counted: the server fell behind). */
const MAX_IN_FLIGHT = 5_000;
const SAMPLE_MS = 5_000;
/** The outbox lag goal's bound on the p99 (seconds, 1; a histogram bucket bound: 0.5, 1, 2.5, 5). */
const lagBound = Number(env.SOAK_OUTBOX_LAG_P99 ?? 1);
/** Where the outbox worker runs: in the API process ("embedded") or a process of its own ("process"). */
const workerMode = env.SOAK_WORKER === "process" ? "process" : "embedded";
if (env.SOAK_WORKER !== undefined && env.SOAK_WORKER !== "process" && env.SOAK_WORKER !== "embedded") {
  throw new Error(`soak: SOAK_WORKER=${env.SOAK_WORKER}: "embedded" or "process"`);
}

const percentile = (sorted: ArrayLike<number>, p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN);
const sorted = (values: number[]) => Float64Array.from(values).sort();
const median = (values: number[]) => percentile(sorted(values), 0.5);
const mean = (values: number[]) =>
  values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
const round = (value: number, digits = 1) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);

// ---------------------------------------------------------------------------------------------
// Recording: every API request's latency and status, by minute of the phase and by route.

type Phase = "capacity" | "warmup" | "soak";
type Bucket = {
  latencies: number[];
  status: { "2xx": number; "4xx": number; "5xx": number; errors: number };
  actions: number;
  frames: number[];
};
const newBucket = (): Bucket => ({
  latencies: [],
  status: { "2xx": 0, "4xx": 0, "5xx": 0, errors: 0 },
  actions: 0,
  frames: [],
});
let phase: Phase = "capacity";
let phaseStarted = performance.now();
const buckets = new Map<string, Bucket>();
const bucket = (at = performance.now()) => {
  const key = `${phase}:${Math.floor((at - phaseStarted) / 60_000)}`;
  let found = buckets.get(key);
  if (!found) {
    found = newBucket();
    buckets.set(key, found);
  }

  return found;
};
const byRoute = new Map<string, { requests: number; "4xx": number; "5xx": number; errors: number }>();
let capacityActions = 0;
/** Failed requests by route and error (connection refused, reset, timed out). */
const failures = new Map<string, number>();
/** Requests sent again: a keep-alive socket the server had just closed (as browsers and undici do). */
let retried = 0;

const record = (route: string, status: number, started: number) => {
  const into = bucket(started);
  const counts = byRoute.get(route) ?? { requests: 0, "4xx": 0, "5xx": 0, errors: 0 };
  byRoute.set(route, counts);
  counts.requests += 1;
  into.latencies.push(performance.now() - started);
  if (status === 0) {
    into.status.errors += 1;
    counts.errors += 1;
  } else if (status >= 500) {
    into.status["5xx"] += 1;
    counts["5xx"] += 1;
  } else if (status >= 400) {
    into.status["4xx"] += 1;
    counts["4xx"] += 1;
  } else {
    into.status["2xx"] += 1;
  }
};

// ---------------------------------------------------------------------------------------------
// The HTTP client: keep-alive, at most CONNECTIONS sockets (requests past it queue in the client,
// and the queueing is part of their latency: the load is open-loop).

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
let apiPort = 0;
type Answer = { status: number; body: { data?: Record<string, unknown> } | undefined };

const call = (
  method: string,
  route: string,
  pathname: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  started = performance.now(),
): Promise<Answer> =>
  new Promise((resolve) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const request = http.request(
      {
        agent,
        host: "127.0.0.1",
        port: apiPort,
        method,
        path: pathname,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(payload === undefined ? {} : { "content-type": "application/json" }),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          record(route, status, started);
          let body: Answer["body"];
          try {
            body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Answer["body"];
          } catch {
            body = undefined;
          }
          resolve({ status, body });
        });
        response.on("error", () => {
          record(route, 0, started);
          resolve({ status: 0, body: undefined });
        });
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error("timed out")));
    request.on("error", (error: NodeJS.ErrnoException) => {
      // A reused keep-alive socket the server closed as the request left: nothing was processed;
      // sent again on a fresh socket, timed from the first attempt.
      if (request.reusedSocket && error.code === "ECONNRESET") {
        retried += 1;
        resolve(call(method, route, pathname, options, started));
        return;
      }
      const key = `${route}: ${error.code ?? error.message}`;
      failures.set(key, (failures.get(key) ?? 0) + 1);
      record(route, 0, started);
      resolve({ status: 0, body: undefined });
    });
    request.end(payload);
  });

// ---------------------------------------------------------------------------------------------
// The world: what the seeds made, and the soak's own members, providers and conversations.

type Member = { index: number; id: string; token: string; conversationId: string; peer: number };
type Provider = { token: string; itemId: string };
type World = {
  members: Member[];
  providers: Provider[];
  listingIds: string[];
  categoryIds: string[];
  terms: string[];
  momentIds: string[];
  image: Buffer;
};

/** A token for the whole run (the soak's hours, and two more). */
const mint = (userId: string, sessionId: string, role: Role, hours: number) =>
  accessToken(TOKEN_SECRET, userId, sessionId, role, hours * 3600);

const seedWorld = async (databaseUrl: string, tokenHours: number): Promise<World> => {
  // A fifth of `pnpm bench`'s world (20,000 listings, 20,000 moments with 200,000 likes), so the
  // 2-minute run in CI does not spend longer seeding than soaking.
  const [{ visibleListingIds, categoryIds }] = await Promise.all([
    withClient(databaseUrl, (client) =>
      seedMarketplace(client, { providers: 2_000, listingsPerProvider: 10, itemsPerListing: 3 }),
    ),
    withClient(databaseUrl, (client) => seedCommunity(client, TOKEN_SECRET, 20_000)),
  ]);

  return withClient(databaseUrl, async (client) => {
    // Members, two to a conversation, each with a session (written here: sign-in mails codes).
    const users = Array.from({ length: SOCKETS }, () => ({ id: randomUUID(), session: randomUUID() }));
    await insertUsers(client, {
      ids: users.map((user) => user.id),
      sessions: users.map((user) => user.session),
      prefix: "soak",
      displayName: "Soak Member",
    });
    const pairs = Math.floor(SOCKETS / 2);
    const conversationIds = Array.from({ length: pairs }, () => randomUUID());
    await client.query(
      `INSERT INTO conversations (id, user_a_id, user_b_id, created_at, updated_at)
       SELECT id, least(a, b), greatest(a, b), now(), now() FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS t(id, a, b)`,
      [
        conversationIds,
        conversationIds.map((_, k) => users[2 * k]?.id),
        conversationIds.map((_, k) => users[2 * k + 1]?.id),
      ],
    );
    const members = await Promise.all(
      users.slice(0, pairs * 2).map(async (user, index) => ({
        index,
        id: user.id,
        token: await mint(user.id, user.session, "member", tokenHours),
        conversationId: conversationIds[Math.floor(index / 2)] ?? "",
        peer: index % 2 === 0 ? index + 1 : index - 1,
      })),
    );

    // Providers: the owners of 50 visible listings spread over the seed, each with a session, who
    // confirm the payments for their listing's orders.
    const step = Math.max(1, Math.floor(visibleListingIds.length / 50));
    const chosen = visibleListingIds.filter((_, i) => i % step === 0).slice(0, 50);
    const { rows } = await client.query<{ user_id: string; item_id: string }>(
      `SELECT DISTINCT ON (l.id) p.user_id, m.id AS item_id
         FROM listings l JOIN provider_profiles p ON p.id = l.provider_id
         JOIN menu_items m ON m.listing_id = l.id AND m.active
        WHERE l.id = ANY($1::uuid[]) ORDER BY l.id, m.id`,
      [chosen],
    );
    const providers: Provider[] = [];
    for (const row of rows) {
      const session = randomUUID();
      await client.query("INSERT INTO sessions (id, user_id, created_at) VALUES ($1, $2, now())", [
        session,
        row.user_id,
      ]);
      providers.push({
        token: await mint(row.user_id, session, "provider", tokenHours),
        itemId: row.item_id,
      });
    }
    const terms = (
      await client.query<{ w: string }>(
        "SELECT DISTINCT split_part(lower(name), ' ', 1) AS w FROM listings ORDER BY 1 LIMIT 1000",
      )
    ).rows.map((row) => row.w);
    const momentIds = (
      await client.query<{ id: string }>(
        "SELECT id FROM moments WHERE hidden_at IS NULL ORDER BY created_at DESC LIMIT 5000",
      )
    ).rows.map((row) => row.id);
    // A photo as phones send them, scaled down: 640×480 JPEG of noise (no two runs' bytes compress alike).
    const image = await sharp({
      create: {
        width: 640,
        height: 480,
        channels: 3,
        background: { r: 128, g: 128, b: 128 },
        noise: { type: "gaussian", mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 80 })
      .toBuffer();

    return { members, providers, listingIds: visibleListingIds, categoryIds, terms, momentIds, image };
  });
};

// ---------------------------------------------------------------------------------------------
// Realtime: every member's socket on its conversation; messages sent over HTTP are timed to the
// frame on the peer's socket.

const pendingFrames = new Map<string, { sentAt: number; to: number }>();
let socketsClosed = 0;
let framesLate = 0;

const openSockets = async (world: World, apiUrl: string) => {
  const sockets: WebSocket[] = [];
  for (let start = 0; start < world.members.length; start += 50) {
    const batch = world.members.slice(start, start + 50).map(
      (member) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(
            `${apiUrl.replace("http", "ws")}/api/v1/chat/conversations/${member.conversationId}/realtime`,
            { headers: { authorization: `Bearer ${member.token}` } },
          );
          ws.on("message", (data) => {
            const at = performance.now();
            const frame = JSON.parse(String(data)) as { type: string; data?: { client_message_id?: string } };
            const key = frame.type === "message" ? frame.data?.client_message_id : undefined;
            const expected = key ? pendingFrames.get(key) : undefined;
            if (key && expected?.to === member.index) {
              pendingFrames.delete(key);
              bucket(expected.sentAt).frames.push(at - expected.sentAt);
            }
          });
          ws.once("open", () => {
            ws.on("close", () => {
              if (!closing) {
                socketsClosed += 1;
              }
            });
            resolve(ws);
          });
          ws.once("error", reject);
        }),
    );
    sockets.push(...(await Promise.all(batch)));
  }

  return sockets;
};
let closing = false;

// ---------------------------------------------------------------------------------------------
// The mix: what one user does in one visit, with its weight per 1,000 actions (docs/performance.md,
// "Soak", says why these weights).

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;
/** Skewed towards the head of the list (a few popular items, a long tail): rank ≈ n × u³. */
const popular = <T>(list: readonly T[]): T => list[Math.floor(Math.random() ** 3 * list.length)] as T;
const idempotency = () => ({ "idempotency-key": randomUUID() });

type Action = (world: World) => Promise<unknown>;

const checkout: Action = async (world) => {
  const member = pick(world.members);
  const provider = pick(world.providers);
  const order = await call("POST", "POST /orders", "/api/v1/orders", {
    token: member.token,
    body: { menu_item_id: provider.itemId, quantity: 1 + Math.floor(Math.random() * 3) },
    headers: idempotency(),
  });
  const orderId = order.body?.data?.id;
  if (order.status !== 201 || typeof orderId !== "string") {
    return;
  }
  const method = pick(["walletone_qr", "wallettwo_qr"]);
  const payment = await call("POST", "POST /orders/{id}/payments", `/api/v1/orders/${orderId}/payments`, {
    token: member.token,
    body: { method },
    headers: idempotency(),
  });
  const paymentId = payment.body?.data?.id;
  const version = payment.body?.data?.version;
  if (payment.status !== 201 || typeof paymentId !== "string") {
    return;
  }
  const submitted = await call("POST", "POST /payments/{id}/submit", `/api/v1/payments/${paymentId}/submit`, {
    token: member.token,
    body: { method, version },
  });
  if (submitted.status !== 200) {
    return;
  }
  await call("POST", "POST /payments/{id}/evidence", `/api/v1/payments/${paymentId}/evidence`, {
    token: member.token,
    body: {
      note: `Paid at ${new Date().toISOString().slice(11, 16)}, reference ${Math.floor(Math.random() * 10_000)}.`,
    },
  });
  await call("POST", "POST /payments/{id}/confirm", `/api/v1/payments/${paymentId}/confirm`, {
    token: provider.token,
  });
};

const uploadMoment: Action = async (world) => {
  const member = pick(world.members);
  const ticket = await call("POST", "POST /media/upload", "/api/v1/media/upload", {
    token: member.token,
    body: { purpose: "moment", mime_type: "image/jpeg", size_bytes: world.image.length },
  });
  const data = ticket.body?.data as
    | { id?: string; upload_url?: string; headers?: Record<string, string> }
    | undefined;
  if (ticket.status !== 201 || !data?.id || !data.upload_url) {
    return;
  }
  let put: Response;
  try {
    put = await fetch(data.upload_url, { method: "PUT", headers: data.headers, body: world.image });
    await put.arrayBuffer();
  } catch (error) {
    storeRefusals.push(0);
    failures.set(
      `PUT (object store): ${String(error)}`,
      (failures.get(`PUT (object store): ${String(error)}`) ?? 0) + 1,
    );
    return;
  }
  if (!put.ok) {
    storeRefusals.push(put.status);
    return;
  }
  // As the typed client's media.upload does: the upload is confirmed, so its processing starts
  // while the member writes; the moment takes it at once (201) and shows it processing.
  const confirmed = await call("POST", "POST /media/{id}/confirm", `/api/v1/media/${data.id}/confirm`, {
    token: member.token,
  });
  if (confirmed.status !== 200) {
    return;
  }
  const moment = await call("POST", "POST /community/moments", "/api/v1/community/moments", {
    token: member.token,
    body: { body: "Sunset from the pier tonight", media_asset_ids: [data.id] },
  });
  if (moment.status !== 201) {
    return;
  }
  // The app reads the picture until it is ready, backing off (250 ms doubling to 2 s: a slow worker
  // must not multiply the reads), for at most 60 s.
  const until = performance.now() + 60_000;
  for (let attempt = 0; performance.now() < until; attempt += 1) {
    const read = await call("GET", "GET /media/{id}", `/api/v1/media/${data.id}`, { token: member.token });
    if (read.status !== 200) {
      return;
    }
    const status = read.body?.data?.status;
    if (status === "ready") {
      return;
    }
    if (status === "rejected") {
      mediaRejected += 1;
      return;
    }
    await sleep(Math.min(2_000, 250 * 2 ** attempt));
  }
  mediaNeverReady += 1;
};
const storeRefusals: number[] = [];
let mediaRejected = 0;
let mediaNeverReady = 0;

const sendMessage: Action = async (world) => {
  const member = pick(world.members);
  const key = randomUUID();
  const sentAt = performance.now();
  pendingFrames.set(key, { sentAt, to: member.peer });
  const sent = await call(
    "POST",
    "POST /chat/…/messages",
    `/api/v1/chat/conversations/${member.conversationId}/messages`,
    { token: member.token, body: { body: "Are we still on for dinner tonight?", client_message_id: key } },
  );
  if (sent.status !== 201) {
    pendingFrames.delete(key);
  }
};

const mix: { name: string; weight: number; run: Action }[] = [
  {
    name: "browse",
    weight: 150,
    run: (w) =>
      call(
        "GET",
        "GET /listings (browse)",
        `/api/v1/listings?category_id=${pick(w.categoryIds)}&offset=${pick([0, 0, 0, 20, 40])}`,
      ),
  },
  {
    name: "search",
    weight: 120,
    run: (w) => call("GET", "GET /listings?q", `/api/v1/listings?q=${encodeURIComponent(popular(w.terms))}`),
  },
  {
    name: "listing",
    weight: 170,
    run: (w) => call("GET", "GET /listings/{id}", `/api/v1/listings/${popular(w.listingIds)}`),
  },
  {
    name: "feed",
    weight: 140,
    run: (w) =>
      call("GET", "GET /community/feed", "/api/v1/community/feed", { token: pick(w.members).token }),
  },
  {
    name: "like",
    weight: 80,
    run: (w) =>
      call("POST", "POST /moments/{id}/like", `/api/v1/community/moments/${popular(w.momentIds)}/like`, {
        token: pick(w.members).token,
      }),
  },
  {
    name: "moment",
    weight: 20,
    run: (w) =>
      call("POST", "POST /community/moments", "/api/v1/community/moments", {
        token: pick(w.members).token,
        body: { body: "Fresh bread from the market this morning." },
      }),
  },
  { name: "chat send", weight: 120, run: sendMessage },
  {
    name: "chat read",
    weight: 60,
    run: (w) => {
      const member = pick(w.members);

      return call(
        "GET",
        "GET /chat/…/messages",
        `/api/v1/chat/conversations/${member.conversationId}/messages`,
        {
          token: member.token,
        },
      );
    },
  },
  {
    name: "conversations",
    weight: 30,
    run: (w) =>
      call("GET", "GET /chat/conversations", "/api/v1/chat/conversations", { token: pick(w.members).token }),
  },
  {
    name: "notifications",
    weight: 50,
    run: (w) => call("GET", "GET /notifications", "/api/v1/notifications", { token: pick(w.members).token }),
  },
  { name: "checkout", weight: 30, run: checkout },
  { name: "upload", weight: 30, run: uploadMoment },
];
const totalWeight = mix.reduce((sum, entry) => sum + entry.weight, 0);
const nextAction = (): Action => {
  let roll = Math.random() * totalWeight;
  for (const entry of mix) {
    roll -= entry.weight;
    if (roll < 0) {
      return entry.run;
    }
  }

  return mix[0]?.run ?? (async () => {});
};

/** Closed loop: `concurrency` users each starting their next action when the last ended. */
/**
 * Closed loop: `concurrency` users each starting their next action when the last ended, for
 * `seconds`; then the outbox is left to drain (deliveries, media processing), and that time counts
 * too: the rate is what the API and its worker sustain together, not what the HTTP side answers
 * while the worker's backlog grows.
 */
const closedLoop = async (world: World, apiUrl: string, concurrency: number, seconds: number) => {
  const began = performance.now();
  const until = began + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        await nextAction()(world);
        done += 1;
      }
    }),
  );
  for (let waited = 0; waited < 120_000; waited += 250) {
    const text = await (await fetch(`${apiUrl}/metrics`)).text();
    if (Number(/^agora_outbox_pending_events (\S+)$/m.exec(text)?.[1] ?? 0) === 0) {
      break;
    }
    await sleep(250);
  }

  return { actionsPerSecond: done / ((performance.now() - began) / 1000), answered: done / seconds };
};

let droppedActions = 0;
/** Open loop: actions start at `rate` per second whatever the answers do (as users arrive). */
const openLoop = async (world: World, rate: number, seconds: number) => {
  const began = performance.now();
  let started = 0;
  const inFlight = new Set<Promise<unknown>>();
  for (;;) {
    const elapsed = (performance.now() - began) / 1000;
    if (elapsed >= seconds) {
      break;
    }
    const due = Math.floor(elapsed * rate);
    while (started < due) {
      started += 1;
      if (inFlight.size >= MAX_IN_FLIGHT) {
        droppedActions += 1;
        continue;
      }
      bucket().actions += 1;
      const running: Promise<unknown> = nextAction()(world)
        .catch(() => {})
        .finally(() => inFlight.delete(running));
      inFlight.add(running);
    }
    await sleep(2);
  }
  await Promise.all(inFlight);
};

// ---------------------------------------------------------------------------------------------
// /metrics, sampled every 5 s.

type Sample = { phase: Phase; minute: number; rssMiB: number } & Omit<MetricFigures, "residentBytes">;
const samples: Sample[] = [];

const sampleMetrics = async (
  apiUrl: string,
  pid: number | undefined,
  workerMetricsUrl: string | undefined,
): Promise<Sample | undefined> => {
  const at = performance.now();
  let text: string;
  let workerText: string | undefined;
  try {
    text = await (await fetch(`${apiUrl}/metrics`)).text();
    workerText = workerMetricsUrl ? await (await fetch(workerMetricsUrl)).text() : undefined;
  } catch {
    return undefined;
  }
  const { residentBytes, ...figures } = readMetrics(text);
  // A worker of its own observes the deliveries' lag: its histogram, not the API's (empty then).
  const lagBuckets = workerText === undefined ? figures.lagBuckets : readMetrics(workerText).lagBuckets;

  return {
    phase,
    minute: Math.floor((at - phaseStarted) / 60_000),
    rssMiB: rssMiB(pid) ?? residentBytes / 1_048_576,
    ...figures,
    lagBuckets,
  };
};

// ---------------------------------------------------------------------------------------------

const main = async () => {
  // The driver (and the local S3 store in it) on CPU 1, the API on CPU 0, as `pnpm bench` pins them.
  if (hasTaskset) {
    spawnSync("taskset", ["-p", "-c", "1", String(process.pid)]);
  }
  const startedAt = new Date();
  const { admin, name: databaseName, url: databaseUrl } = await createDatabase(adminUrl, "agora_soak");
  const dataDir = mkdtempSync(path.join(tmpdir(), "agora-soak-"));
  const s3Dir = mkdtempSync(path.join(tmpdir(), "agora-soak-s3-"));
  const s3 = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: "agora-media" }],
  });
  const store = await s3.run();
  // s3rver removes a prefix's directory when its last object goes, racing a PUT creating a file in
  // it (ENOENT thrown out of s3rver): processing deletes each upload's original, so uploads/ empties
  // whenever the worker catches up. A file of ours keeps both prefixes' directories.
  for (const prefix of ["uploads", "media"]) {
    mkdirSync(path.join(s3Dir, "agora-media", prefix), { recursive: true });
    writeFileSync(path.join(s3Dir, "agora-media", prefix, ".soak-keep"), "");
  }
  apiPort = await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const tokenHours = Math.ceil((soakMinutes + warmupMinutes) / 60) + 2;
  // The API and, with SOAK_WORKER=process, the worker: one configuration.
  const serverEnv = apiEnv(
    { databaseUrl: databaseUrl.toString(), dataDir, tokenSecret: TOKEN_SECRET },
    {
      NODE_OPTIONS: "--max-semi-space-size=4",
      DATABASE_POOL_MAX: env.SOAK_POOL_MAX ?? "10",
      LOG_LEVEL: "warn",
      PAYMENT_INSTRUCTIONS_WALLETONE_QR: "Scan the code in WalletOne.",
      PAYMENT_INSTRUCTIONS_WALLETTWO_QR: "Scan the code in WalletTwo.",
      S3_ENDPOINT: `http://${store.address}:${store.port}`,
      S3_REGION: "us-east-1",
      S3_BUCKET: "agora-media",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
      // The per-member limits stay on but out of reach: 500 members do the traffic of thousands.
      ...LIMITS_OUT_OF_REACH,
      MEDIA_PENDING_UPLOADS_PER_DAY: "1000000",
      MEDIA_PENDING_UPLOAD_BYTES_PER_DAY: "1000000000000",
      ...Object.fromEntries(Object.entries(env).filter(([key]) => key.startsWith("OUTBOX_"))),
    },
  );
  const api = startNode(
    apiArgs(),
    { ...serverEnv, PORT: String(apiPort), WORKER: workerMode === "process" ? "off" : "embedded" },
    { cpu: 0 },
  );
  let workerMetricsUrl: string | undefined;
  const worker =
    workerMode === "process"
      ? await (async () => {
          const healthPort = await freePort();
          workerMetricsUrl = `http://127.0.0.1:${healthPort}/metrics`;

          return startNode(
            [...API_NODE_FLAGS, "apps/worker/dist/main.js"],
            { ...serverEnv, WORKER_HEALTH_PORT: String(healthPort) },
            { cpu: 1 },
          );
        })()
      : undefined;
  process.on("exit", () => {
    api.kill("SIGTERM");
    worker?.kill("SIGTERM");
  });
  const log = (line: string) => process.stderr.write(`soak: ${line}\n`);
  let sockets: WebSocket[] = [];
  let sampler: NodeJS.Timeout | undefined;
  let outcome: { failed: boolean; file: string } | undefined;
  try {
    await waitFor200(`${apiUrl}/ready`, api, 120_000);
    if (worker && workerMetricsUrl) {
      await waitFor200(workerMetricsUrl.replace(/metrics$/, "ready"), worker, 120_000);
    }
    const seedStarted = performance.now();
    const world = await seedWorld(databaseUrl.toString(), tokenHours);
    log(
      `seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s: ${world.listingIds.length} visible listings, ` +
        `${world.momentIds.length} recent moments, ${world.members.length} members, ${world.providers.length} providers`,
    );
    sockets = await openSockets(world, apiUrl);
    log(`${sockets.length} realtime sockets open`);
    const takeSample = async () => {
      const sample = await sampleMetrics(apiUrl, api.pid, workerMetricsUrl);
      if (sample) {
        samples.push(sample);
      }
    };
    sampler = setInterval(() => void takeSample(), SAMPLE_MS);

    // 1. Capacity: closed loop at rising concurrency; the best actions/s.
    let capacity: { concurrency: number; actionsPerSecond: number }[] = [];
    let rate = fixedRate;
    if (rate === undefined) {
      phase = "capacity";
      phaseStarted = performance.now();
      for (const concurrency of [8, 16, 32, 64]) {
        const { actionsPerSecond, answered } = await closedLoop(world, apiUrl, concurrency, 15);
        capacity.push({ concurrency, actionsPerSecond });
        log(
          `capacity: ${concurrency} users in a closed loop: ${answered.toFixed(0)} actions/s answered, ` +
            `${actionsPerSecond.toFixed(0)} with the outbox drained`,
        );
      }
      const best = Math.max(...capacity.map((step) => step.actionsPerSecond));
      capacityActions = best;
      rate = Math.max(1, Math.round(best * loadShare));
    } else {
      capacity = [];
    }
    // 2. Warm-up and soak at a constant arrival rate.
    log(`warm-up: ${warmupMinutes} min at ${rate} actions/s (outbox worker: ${workerMode})`);
    phase = "warmup";
    phaseStarted = performance.now();
    await openLoop(world, rate, warmupMinutes * 60);
    phase = "soak";
    phaseStarted = performance.now();
    await takeSample();
    log(`soak: ${soakMinutes} min at ${rate} actions/s`);
    const ticker = setInterval(() => {
      const minute = Math.floor((performance.now() - phaseStarted) / 60_000);
      const done = buckets.get(`soak:${minute - 1}`);
      if (done) {
        const p99 = percentile(sorted(done.latencies), 0.99);
        log(
          `minute ${minute}: ${(done.latencies.length / 60).toFixed(0)} req/s, p99 ${p99.toFixed(1)} ms, 5xx ${done.status["5xx"]}`,
        );
      }
    }, 60_000);
    await openLoop(world, rate, soakMinutes * 60);
    clearInterval(ticker);
    await takeSample();
    clearInterval(sampler);
    // Frames still on their way get 10 s.
    for (let waited = 0; pendingFrames.size > 0 && waited < 10_000; waited += 100) {
      await sleep(100);
    }
    framesLate = pendingFrames.size;

    // 3. The goals.
    const minutes = Array.from({ length: soakMinutes }, (_, minute) => minute);
    const window = Math.max(1, Math.min(5, Math.floor(soakMinutes / 2)));
    const first = minutes.slice(0, window);
    const last = minutes.slice(-window);
    const inMinutes = (list: number[]) =>
      samples.filter((s) => s.phase === "soak" && list.includes(s.minute));
    const latenciesOf = (list: number[]) =>
      sorted(list.flatMap((m) => buckets.get(`soak:${m}`)?.latencies ?? []));
    const soakBuckets = minutes.map((m) => buckets.get(`soak:${m}`) ?? newBucket());
    const warmupBuckets = [...buckets.entries()]
      .filter(([key]) => key.startsWith("warmup:"))
      .map(([, b]) => b);
    const status = (list: Bucket[]) =>
      list.reduce(
        (sum, b) => ({
          "2xx": sum["2xx"] + b.status["2xx"],
          "4xx": sum["4xx"] + b.status["4xx"],
          "5xx": sum["5xx"] + b.status["5xx"],
          errors: sum.errors + b.status.errors,
        }),
        { "2xx": 0, "4xx": 0, "5xx": 0, errors: 0 },
      );
    const soakStatus = status(soakBuckets);
    const warmStatus = status(warmupBuckets);
    const p99First = percentile(latenciesOf(first), 0.99);
    const p99Last = percentile(latenciesOf(last), 0.99);
    const rssFirst = median(inMinutes(first).map((s) => s.rssMiB));
    const rssLast = median(inMinutes(last).map((s) => s.rssMiB));
    const handlesFirst = median(inMinutes(first).map((s) => s.handles));
    const handlesLast = median(inMinutes(last).map((s) => s.handles));
    const waitingFirst = mean(inMinutes(first).map((s) => s.poolWaiting));
    const waitingLast = mean(inMinutes(last).map((s) => s.poolWaiting));
    const soakSamples = samples.filter((s) => s.phase === "soak");
    const lag = lagP99(soakSamples[0]?.lagBuckets, soakSamples.at(-1)?.lagBuckets);
    const lagByKind = Object.fromEntries(
      [...(soakSamples.at(-1)?.lagBuckets.keys() ?? [])]
        .filter(Boolean)
        .map((kind) => [kind, lagP99(soakSamples[0]?.lagBuckets, soakSamples.at(-1)?.lagBuckets, kind)]),
    );
    const goals = [
      {
        goal: "no 5xx and no failed request (connection error, 30 s timeout) in warm-up and soak",
        value: `${soakStatus["5xx"] + warmStatus["5xx"]} 5xx, ${soakStatus.errors + warmStatus.errors} failed`,
        met: soakStatus["5xx"] + warmStatus["5xx"] + soakStatus.errors + warmStatus.errors === 0,
        enforced: true,
      },
      {
        // The model sends only valid requests: a 4xx is a regression (a conflict, a limit, a check).
        goal: "no 4xx in warm-up and soak; every upload stored and accepted by processing",
        value:
          `${soakStatus["4xx"] + warmStatus["4xx"]} 4xx, ${storeRefusals.length} refused by the store, ` +
          `${mediaRejected} rejected (${mediaNeverReady} not ready within 60 s, not counted)`,
        met: soakStatus["4xx"] + warmStatus["4xx"] + storeRefusals.length + mediaRejected === 0,
        enforced: true,
      },
      {
        goal: `p99 of the last ${window} min within 10% of the first ${window} after warm-up`,
        value: `${p99First.toFixed(1)} → ${p99Last.toFixed(1)} ms (${((p99Last / p99First - 1) * 100).toFixed(1)}%)`,
        met: p99Last <= p99First * 1.1,
        enforced: strict,
      },
      {
        goal: "resident memory grows < 5% after warm-up (median of the first and of the last window's samples)",
        value: `${rssFirst.toFixed(0)} → ${rssLast.toFixed(0)} MiB (${((rssLast / rssFirst - 1) * 100).toFixed(1)}%)`,
        met: rssLast < rssFirst * 1.05,
        enforced: strict,
      },
      {
        goal: `outbox delivery lag p99 ≤ ${lagBound} s (agora_outbox_delivery_lag_seconds, over the soak)`,
        value:
          `p99 ≤ ${lag.p99Seconds} s over ${lag.deliveries} deliveries (${Object.entries(lagByKind)
            .map(([kind, k]) => `${kind} ≤ ${k.p99Seconds} s`)
            .join(", ")}); ` +
          `oldest pending at most ${Math.max(0, ...soakSamples.map((s) => s.outboxOldestSeconds)).toFixed(1)} s`,
        met: lag.deliveries > 0 && lag.p99Seconds <= lagBound,
        enforced: true,
      },
      {
        goal: "no growth in pool waiters (mean of the last window ≤ first + 1)",
        value: `${waitingFirst.toFixed(2)} → ${waitingLast.toFixed(2)} (max ${Math.max(0, ...soakSamples.map((s) => s.poolWaiting))})`,
        met: waitingLast <= waitingFirst + 1,
        enforced: true,
      },
      {
        goal: "no growth in open handles (median of the last window ≤ first + max(10, 5%))",
        value: `${handlesFirst} → ${handlesLast}`,
        met: handlesLast <= handlesFirst + Math.max(10, handlesFirst * 0.05),
        enforced: true,
      },
      {
        goal: "realtime: every message reached the peer's socket (10 s grace), no socket closed",
        value: `${framesLate} frames missing, ${socketsClosed} sockets closed`,
        met: framesLate === 0 && socketsClosed === 0,
        enforced: true,
      },
      {
        goal: "the driver kept the arrival rate (no action dropped at 5,000 in flight)",
        value: `${droppedActions} dropped`,
        met: droppedActions === 0,
        enforced: true,
      },
    ];
    const failed = goals.some((g) => g.enforced && !g.met);

    const series = minutes.map((minute) => {
      const b = soakBuckets[minute] ?? newBucket();
      const latencies = sorted(b.latencies);
      const frames = sorted(b.frames);
      const inMinute = soakSamples.filter((s) => s.minute === minute);
      const before = soakSamples.filter((s) => s.minute < minute).at(-1) ?? inMinute[0];

      return {
        minute: minute + 1,
        actionsPerSecond: round(b.actions / 60),
        requestsPerSecond: round(b.latencies.length / 60),
        p50Ms: round(percentile(latencies, 0.5)),
        p99Ms: round(percentile(latencies, 0.99)),
        maxMs: round(latencies.at(-1) ?? Number.NaN),
        status: b.status,
        realtimeP99Ms: round(percentile(frames, 0.99)),
        rssMiB: round(median(inMinute.map((s) => s.rssMiB)), 0),
        handles: median(inMinute.map((s) => s.handles)),
        poolWaitingMax: Math.max(0, ...inMinute.map((s) => s.poolWaiting)),
        eventLoopP99MsMax: round(Math.max(0, ...inMinute.map((s) => s.eventLoopP99Ms))),
        outboxPendingMax: Math.max(0, ...inMinute.map((s) => s.outboxPending)),
        outboxLagP99Seconds: lagP99(before?.lagBuckets, inMinute.at(-1)?.lagBuckets).p99Seconds,
        openSockets: Math.min(...inMinute.map((s) => s.openSockets)),
      };
    });
    const load = loadavg()
      .map((n) => n.toFixed(1))
      .join(" / ");
    const header = [
      "min",
      "act/s",
      "req/s",
      "p50 ms",
      "p99 ms",
      "5xx",
      "4xx",
      "ws p99",
      "RSS MiB",
      "handles",
      "pool wait",
      "loop p99",
      "outbox lag p99",
    ];
    const rows = series.map((s) => [
      String(s.minute),
      String(s.actionsPerSecond),
      String(s.requestsPerSecond),
      String(s.p50Ms),
      String(s.p99Ms),
      String(s.status["5xx"]),
      String(s.status["4xx"]),
      String(s.realtimeP99Ms),
      String(s.rssMiB),
      String(s.handles),
      String(s.poolWaitingMax),
      String(s.eventLoopP99MsMax),
      `≤ ${s.outboxLagP99Seconds} s`,
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
    const render = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join("  ");
    const routes = [...byRoute.entries()].sort((a, b) => b[1].requests - a[1].requests);
    process.stdout.write(
      [
        "",
        `Soak: ${soakMinutes} min after ${warmupMinutes} min warm-up, ${rate} actions/s` +
          (capacityActions
            ? ` (${Math.round(loadShare * 100)}% of the ${capacityActions.toFixed(0)} actions/s the mix reached closed-loop)`
            : " (SOAK_RATE)") +
          `, ${sockets.length} sockets open; load average at the end ${load} (1 / 5 / 15 min)`,
        "",
        render(header),
        render(widths.map((w) => "-".repeat(w))),
        ...rows.map(render),
        "",
        "requests by route (whole run, capacity included): requests / 4xx / 5xx / failed",
        ...routes.map(([route, c]) => `  ${route}: ${c.requests} / ${c["4xx"]} / ${c["5xx"]} / ${c.errors}`),
        `uploads: ${storeRefusals.length} refused by the store (${storeRefusals.join(", ")}), ${mediaRejected} rejected by processing, ${mediaNeverReady} not ready within 60 s`,
        `requests sent again on a fresh socket (keep-alive socket closed by the server): ${retried}`,
        ...[...failures.entries()].map(([key, n]) => `  failed: ${key}: ${n}`),
        "",
        ...goals.map(
          (g) =>
            `${g.met ? "ok  " : g.enforced ? "MISS" : "miss"}  ${g.goal}: ${g.value}${g.enforced ? "" : " (reported, not enforced)"}`,
        ),
        "",
      ].join("\n"),
    );
    mkdirSync(path.join(repo, "bench/results"), { recursive: true });
    const file = path.join(repo, `bench/results/soak-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        {
          startedAt,
          settings: {
            soakMinutes,
            warmupMinutes,
            loadShare,
            rate,
            sockets: sockets.length,
            connections: CONNECTIONS,
            strict,
            worker: workerMode,
          },
          mix: mix.map(({ name, weight }) => ({ name, weight })),
          capacity,
          loadAverage: loadavg(),
          goals,
          series,
          routes: Object.fromEntries(routes),
          outboxLag: { all: lag, byKind: lagByKind },
          uploads: { storeRefusals, mediaRejected, mediaNeverReady },
          retried,
          failures: Object.fromEntries(failures),
        },
        null,
        2,
      ),
    );
    outcome = { failed, file };
  } finally {
    if (sampler) {
      clearInterval(sampler);
    }
    closing = true;
    for (const socket of sockets) {
      socket.terminate();
    }
    agent.destroy();
    for (const server of worker ? [api, worker] : [api]) {
      server.kill("SIGTERM");
      await new Promise((resolve) =>
        server.exitCode === null ? server.once("exit", resolve) : resolve(undefined),
      );
    }
    await s3.close();
    if (env.SOAK_KEEP_DATABASE) {
      log(`database kept (SOAK_KEEP_DATABASE): ${databaseName}`);
    } else {
      await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`).catch(() => {});
    }
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(s3Dir, { recursive: true, force: true });
  }
  log(`result: ${path.relative(repo, outcome.file)}`);
  if (outcome.failed) {
    log("an enforced goal was missed");
    process.exitCode = 1;
  }
};

await main();
