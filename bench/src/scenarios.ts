// The measured scenarios. Each names the request to Agora and, unless `reference` is false, the
// same request to the raw reference server (reference.ts), which answers the same JSON by running
// the same SQL. `prepare` runs once the servers are up and may create data; it returns the
// per-run request settings (path, headers, bodies).
import { createHash } from "node:crypto";
import { v7 } from "uuid";
import { adminScenarios } from "./admin.ts";
import { chatScenarios } from "./chat.ts";
import { communityData, marketplace, withClient } from "./data.ts";
import { filterScenarios } from "./filters.ts";
import { inboxScenarios } from "./inbox.ts";
import type { BenchContext, Scenario } from "./scenario.types.ts";
import { variedScenarios } from "./varied.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * One user with `count` live sessions, each with one refresh token we know. Written straight to
 * the database: the sign-in flow mails codes, which a load test cannot read.
 */
const createSessions = (databaseUrl: string, count: number) =>
  withClient(databaseUrl, async (client) => {
    const userId = v7();
    await client.query(
      `INSERT INTO users (id, email, username, display_name, password_hash, role, status, email_verified_at, created_at, updated_at)
       VALUES ($1, $2, $3, 'Bench User', '', 'member', 'active', now(), now(), now())`,
      [userId, `bench-${userId}@example.com`, `bench${userId.slice(-12)}`],
    );
    const tokens: string[] = [];
    for (let start = 0; start < count; start += 10_000) {
      const sessions: string[] = [];
      const tokenIds: string[] = [];
      const hashes: string[] = [];
      for (let i = start; i < Math.min(start + 10_000, count); i += 1) {
        const token = `bench-refresh-${userId}-${i}`;
        tokens.push(token);
        sessions.push(v7());
        tokenIds.push(v7());
        hashes.push(sha256(token));
      }
      await client.query(
        `INSERT INTO sessions (id, user_id, created_at) SELECT s, $2, now() FROM unnest($1::uuid[]) AS t(s)`,
        [sessions, userId],
      );
      await client.query(
        `INSERT INTO refresh_tokens (id, session_id, token_hash, created_at, expires_at)
         SELECT id, s, h, now(), now() + interval '30 days' FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS t(id, s, h)`,
        [tokenIds, sessions, hashes],
      );
    }

    return tokens;
  });

/** An access token for a new member (via a refresh token written to the database). */
const memberToken = async ({ databaseUrl, apiUrl }: BenchContext): Promise<string> => {
  const [token] = await createSessions(databaseUrl, 1);
  const response = await fetch(`${apiUrl}/api/v1/auth/refresh`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ refresh_token: token }),
  });
  const { data } = (await response.json()) as { data: { access_token: string } };

  return data.access_token;
};

let orderingMember: Promise<string> | undefined;

/** Event written → first inbox row, for the order events of a window (after the outbox drains). */
const outboxLag = (databaseUrl: string, window: { from: Date; to: Date }) =>
  withClient(databaseUrl, async (client) => {
    for (let i = 0; i < 60; i += 1) {
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM outbox_events WHERE processed_at IS NULL AND dead_at IS NULL",
      );
      if ((rows[0]?.n ?? 0) === 0) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const { rows } = await client.query<{
      events: number;
      p50: number;
      p99: number;
      max: number;
      pending: number;
    }>(
      `SELECT count(*)::int AS events,
              COALESCE(percentile_cont(0.5) WITHIN GROUP (ORDER BY lag), 0) AS p50,
              COALESCE(percentile_cont(0.99) WITHIN GROUP (ORDER BY lag), 0) AS p99,
              COALESCE(max(lag), 0) AS max,
              (SELECT count(*)::int FROM outbox_events WHERE processed_at IS NULL) AS pending
         FROM (SELECT extract(epoch FROM e.processed_at - e.created_at) * 1000 AS lag
                 FROM outbox_events e
                WHERE e.kind = 'order.created' AND e.created_at BETWEEN $1 AND $2 AND e.processed_at IS NOT NULL
                  AND EXISTS (SELECT 1 FROM notifications n WHERE n.event_id = e.id)) lags`,
      [window.from, window.to],
    );
    const row = rows[0];

    return `outbox delivery lag (event written → inbox row) over ${row?.events ?? 0} order events: p50 ${Math.round(row?.p50 ?? 0)} ms, p99 ${Math.round(row?.p99 ?? 0)} ms, max ${Math.round(row?.max ?? 0)} ms; undelivered after the run: ${row?.pending ?? 0}`;
  });

const BENCH_PASSWORD = "bench password 1234";

/**
 * `count` active users who all have BENCH_PASSWORD, for the sign-in scenario: one is registered
 * through the API (so the hash is the server's own argon2id), and the rest are written straight to
 * the database with a copy of its hash. Each sign-in mails a code and starts that user's cooldown,
 * so every request uses another user.
 */
const createLoginUsers = async ({ apiUrl, databaseUrl }: BenchContext, count: number): Promise<string[]> => {
  const seedEmail = `bench-login-seed-${v7()}@example.com`;
  const response = await fetch(`${apiUrl}/api/v1/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: `seed${v7().slice(-12)}`, email: seedEmail, password: BENCH_PASSWORD }),
  });
  if (response.status !== 201) {
    throw new Error(`bench: registering the sign-in seed user answered ${response.status}`);
  }

  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ password_hash: string }>(
      "SELECT password_hash FROM users WHERE email = $1",
      [seedEmail],
    );
    const hash = rows[0]?.password_hash ?? "";
    const ids = Array.from({ length: count }, () => v7());
    const emails = ids.map((id) => `bench-login-${id}@example.com`);
    await client.query(
      `INSERT INTO users (id, email, username, display_name, password_hash, role, status, email_verified_at, created_at, updated_at)
       SELECT id, email, 'login' || right(id::text, 12), 'Bench User', $3, 'member', 'active', now(), now(), now()
         FROM unnest($1::uuid[], $2::text[]) AS t(id, email)`,
      [ids, emails, hash],
    );

    return emails;
  });
};

/** One more API process per DATABASE_PREPARED_STATEMENTS mode (stopped when the run ends). */
const statementApis = new Map<string, Promise<string>>();
const statementApi = (mode: "named" | "unnamed", context: BenchContext) => {
  const started =
    statementApis.get(mode) ??
    // Coalescing off: every request runs its own statements, whose preparing is what is measured.
    context.startApi({ DATABASE_PREPARED_STATEMENTS: mode, LISTINGS_COALESCE: "off" }).then((api) => api.url);
  statementApis.set(mode, started);

  return started;
};

/**
 * The cost of DATABASE_PREPARED_STATEMENTS=unnamed beside named (docs/operations.md, "Connection
 * poolers"): a listing read and an order placed, each on an API process of its mode
 * (both started alike: WORKER=off, listing coalescing off), each beside the reference.
 * `BENCH_ONLY=statements` runs these rows alone.
 */
const statementScenarios = (): Scenario[] =>
  (["named", "unnamed"] as const).flatMap((mode): Scenario[] => [
    {
      name: `GET /listings/{id}, ${mode} statements`,
      request: { path: "/api/v1/listings/:id" },
      connections: [50],
      prepare: async (context) => {
        const [{ visibleListingIds }, apiUrl] = await Promise.all([
          marketplace(context.databaseUrl),
          statementApi(mode, context),
        ]);

        return {
          path: `/api/v1/listings/${visibleListingIds[Math.floor(visibleListingIds.length / 2)]}`,
          apiUrl,
        };
      },
    },
    {
      name: `POST /orders (member), ${mode} statements`,
      request: {
        path: "/api/v1/orders",
        method: "POST",
        headers: { "content-type": "application/json" },
        uniqueHeader: "idempotency-key",
      },
      connections: [50],
      prepare: async (context) => {
        const [{ visibleListingIds }, apiUrl] = await Promise.all([
          marketplace(context.databaseUrl),
          statementApi(mode, context),
        ]);
        const itemId = await withClient(context.databaseUrl, async (client) => {
          const { rows } = await client.query<{ id: string }>(
            "SELECT id FROM menu_items WHERE listing_id = $1 AND active ORDER BY id LIMIT 1",
            [visibleListingIds[0]],
          );

          return rows[0]?.id ?? "";
        });
        // A token of its own: these rows run late in a full run, past the first orders row's token's
        // lifetime (both sides then answered every request with an error).
        const token = await memberToken(context);

        return {
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ menu_item_id: itemId, quantity: 1 }),
          apiUrl,
        };
      },
    },
  ]);

export const scenarios: Scenario[] = [
  { name: "GET /health", request: { path: "/health" }, connections: [50] },
  { name: "GET /api/v1", request: { path: "/api/v1" }, connections: [50] },
  {
    name: "POST /auth/refresh",
    request: {
      path: "/api/v1/auth/refresh",
      method: "POST",
      headers: { "content-type": "application/json" },
    },
    reference: false,
    connections: [50],
    prepare: async ({ databaseUrl }) => {
      const tokens = await createSessions(databaseUrl, 120_000);

      return { bodies: tokens.map((token) => JSON.stringify({ refresh_token: token })) };
    },
  },
  {
    name: "POST /auth/login",
    request: {
      path: "/api/v1/auth/login",
      method: "POST",
      headers: { "content-type": "application/json" },
    },
    reference: false,
    connections: [50],
    prepare: async (context) => {
      const emails = await createLoginUsers(context, 6_000);

      return { bodies: emails.map((email) => JSON.stringify({ email, password: BENCH_PASSWORD })) };
    },
  },
  {
    name: "POST /auth/register",
    request: {
      path: "/api/v1/auth/register",
      method: "POST",
      headers: { "content-type": "application/json" },
    },
    reference: false,
    connections: [50],
    prepare: async () => ({
      bodies: Array.from({ length: 6_000 }, () => {
        const id = v7();

        return JSON.stringify({
          username: `reg${id.slice(-12)}`,
          email: `bench-register-${id}@example.com`,
          password: BENCH_PASSWORD,
        });
      }),
    }),
  },
  {
    name: "GET /auth/me",
    request: { path: "/api/v1/auth/me" },
    connections: [50],
    prepare: async ({ databaseUrl, apiUrl }) => {
      const [token] = await createSessions(databaseUrl, 1);
      const response = await fetch(`${apiUrl}/api/v1/auth/refresh`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ refresh_token: token }),
      });
      const { data } = (await response.json()) as { data: { access_token: string } };

      return { headers: { authorization: `Bearer ${data.access_token}` } };
    },
  },
  {
    name: "POST /orders (member)",
    request: {
      path: "/api/v1/orders",
      method: "POST",
      headers: { "content-type": "application/json" },
      uniqueHeader: "idempotency-key",
    },
    connections: [50],
    prepare: async (context) => {
      const { visibleListingIds } = await marketplace(context.databaseUrl);
      const itemId = await withClient(context.databaseUrl, async (client) => {
        const { rows } = await client.query<{ id: string }>(
          "SELECT id FROM menu_items WHERE listing_id = $1 AND active ORDER BY id LIMIT 1",
          [visibleListingIds[0]],
        );

        return rows[0]?.id ?? "";
      });
      orderingMember ??= memberToken(context);

      return {
        headers: { "content-type": "application/json", authorization: `Bearer ${await orderingMember}` },
        body: JSON.stringify({ menu_item_id: itemId, quantity: 1 }),
      };
    },
    report: (context, window) => outboxLag(context.databaseUrl, window),
  },
  {
    name: "GET /notifications",
    request: { path: "/api/v1/notifications" },
    connections: [50],
    prepare: async (context) => {
      // The member who placed the orders above has an inbox full of them.
      orderingMember ??= memberToken(context);

      return { headers: { authorization: `Bearer ${await orderingMember}` } };
    },
  },
  {
    name: "GET /listings (browse)",
    request: { path: "/api/v1/listings" },
    connections: [50],
    prepare: async ({ databaseUrl }) => {
      await marketplace(databaseUrl);

      return {};
    },
  },
  {
    name: "GET /listings?q (search)",
    request: { path: "/api/v1/listings?q=ramen" },
    connections: [1, 50],
    prepare: async ({ databaseUrl }) => {
      await marketplace(databaseUrl);

      return {};
    },
  },
  {
    name: "GET /listings/{id}",
    request: { path: "/api/v1/listings/:id" },
    connections: [50],
    prepare: async ({ databaseUrl }) => {
      const { visibleListingIds } = await marketplace(databaseUrl);

      return { path: `/api/v1/listings/${visibleListingIds[Math.floor(visibleListingIds.length / 2)]}` };
    },
  },
  {
    // 100k moments and 1M likes; 200 readers in turn, each with blocks both ways among the
    // authors of the newest moments (seed-community.ts).
    name: "GET /community/feed",
    request: { path: "/api/v1/community/feed" },
    connections: [50],
    prepare: async (context) => {
      const { readerTokens } = await communityData(context);

      return { headerSets: readerTokens.map((token) => ({ authorization: `Bearer ${token}` })) };
    },
  },
  ...filterScenarios,
  ...variedScenarios,
  ...chatScenarios,
  ...inboxScenarios,
  ...adminScenarios,
  ...statementScenarios(),
];
