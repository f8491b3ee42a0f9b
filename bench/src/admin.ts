// The administration scenarios: the admin order collection searched and filtered on 1,000,000
// orders, and the moderation reports CSV export of 100,000 reports with the API's memory watched.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { communityData, marketplace, withClient } from "./data.ts";
import type { BenchContext, Scenario } from "./scenario.types.ts";
import { accessToken } from "./seed-community.ts";

const ORDERS = 1_000_000;
const REPORTS = 100_000;
/** The order statuses the seeded orders are spread over (and the admin search filters by). */
export const statuses = ["pending", "confirmed", "in_progress", "completed", "cancelled"];
/** Words that item names are made of (seed-marketplace.ts): each matches about 1 in 200 orders. */
export const searchWords = [
  "ramen",
  "pizza",
  "taco",
  "sushi",
  "curry",
  "bagel",
  "burger",
  "falafel",
  "kebab",
  "salad",
  "waffle",
  "gelato",
  "espresso",
  "brisket",
  "tapas",
  "paella",
  "risotto",
  "gnocchi",
  "focaccia",
  "ceviche",
];

/** An administrator with a session, and an access token for it. */
const adminToken = ({ databaseUrl, tokenSecret }: BenchContext) =>
  withClient(databaseUrl, async (client) => {
    const id = randomUUID();
    const sessionId = randomUUID();
    await client.query(
      `INSERT INTO users (id, email, username, display_name, password_hash, role, status, email_verified_at,
                          created_at, updated_at)
       VALUES ($1, $2, $3, 'Bench Admin', '', 'admin', 'active', now(), now(), now())`,
      [id, `admin-${id}@example.com`, `admin${id.slice(-12)}`],
    );
    await client.query("INSERT INTO sessions (id, user_id, created_at) VALUES ($1, $2, now())", [
      sessionId,
      id,
    ]);

    return accessToken(tokenSecret, id, sessionId, "admin");
  });

/**
 * 1,000,000 orders over the seeded menu items, written inside PostgreSQL (generate_series): spread
 * over the five statuses and 180 days, customers among the seeded users.
 */
const seedOrders = (context: BenchContext) =>
  withClient(context.databaseUrl, async (client) => {
    await client.query(`CREATE TEMP TABLE bench_items AS
                          SELECT row_number() OVER (ORDER BY m.id) - 1 AS n, m.id, m.listing_id, m.name,
                                 m.price_amount, l.provider_id
                            FROM menu_items m JOIN listings l ON l.id = m.listing_id`);
    await client.query(`CREATE TEMP TABLE bench_customers AS
                          SELECT row_number() OVER (ORDER BY id) - 1 AS n, id FROM users`);
    const { rows } = await client.query<{ items: number; customers: number }>(
      `SELECT (SELECT count(*)::int FROM bench_items) AS items, (SELECT count(*)::int FROM bench_customers) AS customers`,
    );
    const items = rows[0]?.items ?? 1;
    const customers = rows[0]?.customers ?? 1;
    for (let start = 0; start < ORDERS; start += 100_000) {
      await client.query(
        `INSERT INTO orders (id, customer_id, provider_id, listing_id, menu_item_id, item_name, unit_price_amount,
                             quantity, total_amount, currency, status, payment_status, version, created_at, updated_at)
         SELECT gen_random_uuid(), c.id, i.provider_id, i.listing_id, i.id, i.name, i.price_amount, 1 + g % 3,
                i.price_amount * (1 + g % 3), 'USD', ($4::text[])[1 + g % 5], 'unpaid', 1,
                now() - (g * interval '15 seconds'), now()
           FROM generate_series($1::int, $2::int) g
           JOIN bench_items i ON i.n = (g::bigint * 7919) % $3
           JOIN bench_customers c ON c.n = (g::bigint * 104729) % $5`,
        [start, Math.min(start + 100_000, ORDERS) - 1, items, statuses, customers],
      );
    }
    await client.query("VACUUM ANALYZE orders");
  });

/** 100,000 reports, one on each seeded moment, by members a few places along. */
const seedReports = (context: BenchContext) =>
  withClient(context.databaseUrl, async (client) => {
    await client.query(
      `INSERT INTO reports (id, target_type, target_id, target_owner_id, reporter_id, category, reason, note,
                            status, created_at, updated_at)
       SELECT gen_random_uuid(), 'moment', m.id, m.author_id, r.id,
              (ARRAY['spam', 'harassment', 'illegal', 'other'])[1 + n % 4],
              (ARRAY['spam', 'abuse', 'illegal', 'other'])[1 + n % 4],
              CASE WHEN n % 7 = 0 THEN '=HYPERLINK("http://example.com") and more, "quoted"' END,
              (ARRAY['open', 'reviewing', 'resolved', 'dismissed'])[1 + n % 4], m.created_at, m.created_at
         FROM (SELECT id, author_id, created_at, row_number() OVER (ORDER BY id) AS n FROM moments LIMIT ${REPORTS}) m
         JOIN LATERAL (SELECT u.id FROM users u WHERE u.id <> m.author_id AND u.role = 'member'
                        ORDER BY u.id OFFSET (m.n % 50) LIMIT 1) r ON TRUE`,
    );
    await client.query("ANALYZE reports");
  });

const residentBytes = async (url: string) => {
  const text = await (await fetch(`${url}/metrics`)).text();

  return Number(/^process_resident_memory_bytes (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
};

/** Downloads `path` to the end, counting bytes and lines; samples the server's RSS while it does. */
const download = async (base: string, path: string, token: string, metricsUrl?: string) => {
  let peak = 0;
  let sampling = metricsUrl !== undefined;
  const sampler = (async () => {
    while (sampling && metricsUrl) {
      peak = Math.max(peak, await residentBytes(metricsUrl));
      await sleep(25);
    }
  })();
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body ?? []) {
    bytes += chunk.length;
    for (const byte of chunk) {
      lines += byte === 10 ? 1 : 0;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;

  return { status: response.status, bytes, lines, seconds, peak };
};

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

let ordersSeeded: Promise<void> | undefined;

export const adminScenarios: Scenario[] = [
  {
    // Varied: 20 item words × (each of the five statuses, or none), in turn; the count and the page
    // of each request are two statements on the trigram and status indexes.
    name: "GET /admin/orders?q&status (1M orders)",
    request: { path: "/api/v1/admin/orders" },
    connections: [10],
    prepare: async (context) => {
      await marketplace(context.databaseUrl);
      ordersSeeded ??= seedOrders(context);
      await ordersSeeded;
      const token = await adminToken(context);
      const paths = searchWords.flatMap((word) =>
        [...statuses, undefined].map(
          (status) => `/api/v1/admin/orders?q=${word}${status === undefined ? "" : `&status=${status}`}`,
        ),
      );

      return { headers: { authorization: `Bearer ${token}` }, paths };
    },
  },
  {
    name: "GET /admin/exports/reports.csv (100k reports)",
    request: { path: "/api/v1/admin/exports/reports.csv" },
    connections: [],
    report: async (context) => {
      await communityData(context);
      await seedReports(context);
      const token = await adminToken(context);
      const path = "/api/v1/admin/exports/reports.csv";
      // Warm both servers on a first download, then measure each once, Agora's RSS sampled.
      await download(context.apiUrl, path, token);
      await download(context.referenceUrl, path, token);
      const baseline = await residentBytes(context.apiUrl);
      const agora = await download(context.apiUrl, path, token, context.apiUrl);
      const reference = await download(context.referenceUrl, path, token);
      const growth = agora.peak - baseline;

      return (
        `${agora.lines - 1} rows, ${mib(agora.bytes)} MiB in ${agora.seconds.toFixed(2)} s ` +
        `(reference, same batches and csv-stringify on raw pg: ${reference.lines - 1} rows in ${reference.seconds.toFixed(2)} s, ` +
        `ratio ${((reference.seconds / agora.seconds) * 100).toFixed(0)}%); API resident memory ${mib(baseline)} MiB before, ` +
        `peak ${mib(agora.peak)} MiB during: growth ${mib(growth)} MiB (goal ≤ 50 MiB)` +
        (agora.status === 200 ? "" : `; status ${agora.status}`)
      );
    },
  },
];
