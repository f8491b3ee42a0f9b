// The measured scenarios. Each names the request to Agora and, unless `reference` is false, the
// same request to the raw reference server (reference.ts), which answers the same JSON by running
// the same SQL. `prepare` runs once the servers are up and may create data; it returns the
// per-run request settings (path, headers, bodies).
import { createHash } from "node:crypto";
import pg from "pg";
import { v7 } from "uuid";
import { type SeededMarketplace, seedMarketplace } from "./seed-marketplace.ts";

export type BenchContext = { apiUrl: string; referenceUrl: string; databaseUrl: string };

export type RequestSpec = {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** One body per request, never repeated across runs (e.g. single-use refresh tokens). */
  bodies?: string[];
  uniqueHeader?: string;
};

export type Scenario = {
  name: string;
  request: RequestSpec;
  /** Path on the reference server; false = no reference for this scenario. */
  reference?: string | false;
  connections: number[];
  prepare?: (context: BenchContext) => Promise<Partial<RequestSpec>>;
};

const withClient = async <T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

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

let seeded: Promise<SeededMarketplace> | undefined;
const marketplace = (databaseUrl: string) => {
  seeded ??= withClient(databaseUrl, (client) => seedMarketplace(client));

  return seeded;
};

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
];
