// The reference server: raw node:http and raw `pg` answering the same JSON as Agora by running the
// same SQL (the statements are imported from the repositories), so each Agora figure can be read
// as a ratio measured in the same run. No framework, no validation layer, no logging, no metrics.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listingSearchQuery, publicListingStatement } from "@agora/db/repositories/listing-queries";
import { jwtVerify } from "jose";
import pg from "pg";

type Handler = (request: IncomingMessage, response: ServerResponse, url: URL) => void | Promise<void>;

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on("error", () => {});
const secret = new TextEncoder().encode(process.env.TOKEN_SECRET ?? "");

const send = (response: ServerResponse, status: number, payload: unknown) => {
  const body = JSON.stringify(payload);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
  });
  response.end(body);
};

const envelope = (data: unknown, meta: unknown = null) => ({
  success: true,
  data,
  meta,
  error: null,
  request_id: randomUUID(),
});

const search: Handler = async (_request, response, url) => {
  const q = url.searchParams.get("q") ?? undefined;
  const categoryId = url.searchParams.get("category_id") ?? undefined;
  const limit = Number(url.searchParams.get("limit") ?? 20);
  const offset = Number(url.searchParams.get("offset") ?? 0);
  const { rows } = await pool.query(listingSearchQuery({ q, categoryId, limit, offset }, new Date()));
  send(response, 200, envelope(rows[0]?.items ?? [], { limit, offset, total: rows[0]?.total ?? 0 }));
};

const listing: Handler = async (_request, response, url) => {
  const id = url.pathname.split("/").pop();
  const { rows } = await pool.query({
    name: publicListingStatement.name,
    text: publicListingStatement.text,
    values: [new Date(), id],
  });
  if (!rows[0]) {
    send(response, 404, { success: false });

    return;
  }
  send(response, 200, envelope(rows[0].listing));
};

const me: Handler = async (request, response) => {
  const token = (request.headers.authorization ?? "").replace(/^Bearer /, "");
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ["HS256"],
      issuer: "agora",
      audience: "agora-api",
    });
    const actor = await pool.query({
      name: "sessions_active_actor",
      text: `SELECT u.id, u.role FROM sessions s JOIN users u ON u.id = s.user_id
              WHERE s.id = $1 AND s.revoked_at IS NULL AND u.status = 'active'`,
      values: [payload.sid],
    });
    if (!actor.rows[0]) {
      throw new Error("revoked");
    }
    const user = await pool.query({
      name: "users_find_by_id",
      text: `SELECT id, email, username::text AS username, display_name, locale, role, status, created_at, password_hash
               FROM users WHERE id = $1`,
      values: [actor.rows[0].id],
    });
    const row = user.rows[0];
    send(
      response,
      200,
      envelope({
        id: row.id,
        username: row.username,
        display_name: row.display_name,
        email: row.email,
        role: row.role,
        status: row.status,
        created_at: row.created_at.toISOString(),
      }),
    );
  } catch {
    send(response, 401, { success: false });
  }
};

const routes = new Map<string, Handler>([
  ["GET /health", (_req, res) => send(res, 200, envelope({ status: "ok" }))],
  ["GET /api/v1", (_req, res) => send(res, 200, envelope({ name: "agora", version: "0.1.0" }))],
  ["GET /api/v1/listings", search],
  ["GET /api/v1/auth/me", me],
]);

const port = Number(process.argv[2] ?? process.env.PORT ?? 0);
const server = createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://reference");
  const handler =
    routes.get(`${request.method} ${url.pathname}`) ??
    (request.method === "GET" && url.pathname.startsWith("/api/v1/listings/") ? listing : undefined);
  if (!handler) {
    send(response, 404, { success: false });

    return;
  }
  Promise.resolve(handler(request, response, url)).catch(() => send(response, 500, { success: false }));
});
server.keepAliveTimeout = 5_000;
server.listen(port, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === "object" && address ? address.port : port}\n`);
});
process.on("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))));
