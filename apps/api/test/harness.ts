import { Writable } from "node:stream";
import { seedCatalog } from "@agora/db/seed";
import { createTestDatabase, type TestDatabase } from "@agora/db/test/databases";
import type { Role } from "@agora/domain/common/actor";
import { createManualClock, type ManualClock } from "@agora/domain/common/clock";
import { uuidV7Ids } from "@agora/domain/common/ids";
import { type WriteLimitKind, writeLimitKinds } from "@agora/domain/common/write-limits";
import type { UserStatus } from "@agora/domain/identity/identity.types";
import { addRefreshToken, presentSession } from "@agora/domain/identity/issue-session";
import type { PushSender } from "@agora/domain/notifications/notifications.ports";
import { type OutboxBatchOptions, runOutboxOnce } from "@agora/domain/outbox/run-outbox";
import { type Config, testConfig } from "@agora/process/config";
import { createLogger } from "@agora/process/logging";
import { createApp } from "../src/app";
import { createDeps, type Runtime } from "../src/deps";
import { createRequestHandler } from "../src/http/handler";

export type LogLine = Record<string, unknown> & { msg?: string; level?: string };

/** Collects pino lines so tests can assert on what the service logged. */
export const createLogCapture = () => {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as LogLine);
      }
      done();
    },
  });

  return { lines, raw, logger: createLogger({ level: "info", destination: stream }) };
};

export type RequestOptions = {
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  token?: string;
};

export type TestResponse<T = unknown> = {
  status: number;
  headers: Headers;
  body: T;
  text: string;
};

export type Harness = Awaited<ReturnType<typeof createHarness>>;

/**
 * The real app over a fresh database (PostgreSQL when TEST_DATABASE_URL is set, PGlite otherwise)
 * with a manual clock and captured logs.
 */
export type TestUser = { id: string; email: string; username: string; password: string; role: Role };
export type SignedIn = { user: TestUser; accessToken: string; refreshToken: string; sessionId: string };

const PASSWORD = "correct horse battery";

export const createHarness = async (
  options: {
    config?: Partial<Config>;
    seed?: boolean;
    mail?: Runtime["mail"];
    push?: PushSender;
    /**
     * Wraps the app's raw SQL executor (the same database; for a test that makes something happen
     * between two of the app's statements). `h.db` stays the unwrapped one.
     */
    wrapSql?: (sql: TestDatabase["db"]["sql"]) => TestDatabase["db"]["sql"];
    /** PGlite: keep the database in this directory instead of memory (the caller removes it). */
    pgliteDataDir?: string;
  } = {},
) => {
  const target: TestDatabase = await createTestDatabase(
    options.pgliteDataDir ? { pgliteDataDir: options.pgliteDataDir } : {},
  );
  const db = target.db;
  if (options.seed ?? true) {
    await seedCatalog(target.db.sql, uuidV7Ids);
  }
  const clock: ManualClock = createManualClock(new Date());
  const logs = createLogCapture();
  // Per-IP limits are off unless a test turns them on: every in-process request has one address.
  // Per-address and write limits are off unless a test turns them on (their own tests do).
  const config = testConfig({
    rateLimitAuthPerIp: 0,
    rateLimitGuestOrdersPerIp: 0,
    writeLimitsPerHour: Object.fromEntries(writeLimitKinds.map((kind) => [kind, 0])) as Record<
      WriteLimitKind,
      number
    >,
    ...options.config,
  });
  const runtime: Runtime = await createDeps(config, {
    database: options.wrapSql ? { ...target.db, sql: options.wrapSql(target.db.sql) } : target.db,
    logger: logs.logger,
    clock,
    ...(options.mail ? { mail: options.mail } : {}),
    ...(options.push ? { push: options.push } : {}),
  });
  const { identity } = runtime;
  let passwordHash: Promise<string> | undefined;
  let sequence = 0;

  /** An account written straight to the database (active and verified unless told otherwise). */
  const createUser = async (
    overrides: { role?: Role; status?: UserStatus; email?: string; username?: string } = {},
  ) => {
    sequence += 1;
    const id = runtime.ids.next();
    const tag = `${sequence}${id.slice(-6)}`;
    const user: TestUser = {
      id,
      email: overrides.email ?? `user${tag}@example.com`,
      username: overrides.username ?? `user${tag}`,
      password: PASSWORD,
      role: overrides.role ?? "member",
    };
    passwordHash ??= identity.passwords.hash(PASSWORD);
    const created = await identity.repos.users.create({
      id,
      email: user.email,
      username: user.username,
      displayName: `User ${tag}`,
      locale: null,
      passwordHash: await passwordHash,
      role: user.role,
      status: overrides.status ?? "active",
      createdAt: clock.now(),
    });
    if (created !== "created") {
      throw new Error(`createUser: ${created}`);
    }

    return user;
  };

  /** A new session for an existing user, made directly (no mails, no cooldowns). */
  const openSession = async (user: TestUser): Promise<SignedIn> => {
    const now = clock.now();
    const sessionId = runtime.ids.next();
    const refreshToken = await identity.uow.run(async (tx) => {
      await tx.sessions.create({ id: sessionId, userId: user.id, createdAt: now });

      return addRefreshToken(identity, tx, { id: sessionId, createdAt: now }, now);
    });
    const stored = await identity.repos.users.findById(user.id);
    if (!stored) {
      throw new Error("signIn: user vanished");
    }
    const session = await presentSession(identity, stored, sessionId, refreshToken, now);

    return { user, accessToken: session.accessToken, refreshToken, sessionId };
  };

  /** A new user with a session. */
  const signIn = async (overrides: Parameters<typeof createUser>[0] = {}): Promise<SignedIn> =>
    openSession(await createUser(overrides));

  /** An active category of the seeded catalog. */
  const categoryId = async (index = 0): Promise<string> => {
    const categories = await runtime.marketplace.repos.catalog.listCategories();
    const category = categories[index];
    if (!category) {
      throw new Error("categoryId: the catalog is not seeded");
    }

    return category.id;
  };

  /** A signed-in user with a provider profile (approved, with the provider role, unless told otherwise). */
  const provider = async (options: { approved?: boolean; displayName?: string } = {}) => {
    const approved = options.approved ?? true;
    const session = await signIn({ role: approved ? "provider" : "member" });
    const profileId = runtime.ids.next();
    await db.sql.query(
      `INSERT INTO provider_profiles (id, user_id, display_name, approval_status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5)`,
      [
        profileId,
        session.user.id,
        options.displayName ?? `Provider ${session.user.username}`,
        approved ? "approved" : "pending",
        clock.now(),
      ],
    );

    return { ...session, providerId: profileId };
  };

  /**
   * A listing written straight to the database. Defaults make it publicly visible: active, with a
   * subscription active for 30 days. Returns its id.
   */
  const listing = async (
    providerId: string,
    options: {
      name?: string;
      description?: string;
      status?: "draft" | "active" | "inactive" | "suspended";
      subscription?: "active" | "inactive";
      expiresAt?: Date | null;
      featuredUntil?: Date | null;
      categoryId?: string;
      updatedAt?: Date;
      items?: { name: string; priceAmount: number; currency?: string; active?: boolean }[];
    } = {},
  ): Promise<string> => {
    const id = runtime.ids.next();
    const now = clock.now();
    await db.sql.query(
      `INSERT INTO listings (id, provider_id, category_id, name, description, status, subscription_status,
                             subscription_expires_at, featured_until, provider_approved, search_text, created_at, updated_at)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, p.approval_status = 'approved',
              lower($4 || ' ' || $5 || ' ' || p.display_name), $10, $11
         FROM provider_profiles p WHERE p.id = $2`,
      [
        id,
        providerId,
        options.categoryId ?? (await categoryId()),
        options.name ?? `Listing ${id.slice(-6)}`,
        options.description ?? "",
        options.status ?? "active",
        options.subscription ?? "active",
        options.expiresAt === undefined ? new Date(now.getTime() + 30 * 24 * 3600_000) : options.expiresAt,
        options.featuredUntil ?? null,
        now,
        options.updatedAt ?? now,
      ],
    );
    for (const [index, item] of (options.items ?? []).entries()) {
      await db.sql.query(
        `INSERT INTO menu_items (id, listing_id, name, price_amount, currency, active, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
        [
          runtime.ids.next(),
          id,
          item.name,
          item.priceAmount,
          item.currency ?? "USD",
          item.active ?? true,
          new Date(now.getTime() + index),
        ],
      );
    }

    return id;
  };

  /** An approved provider with a public listing and one active menu item. */
  const orderable = async (
    options: { priceAmount?: number; currency?: string; displayName?: string } = {},
  ) => {
    const seller = await provider(options.displayName ? { displayName: options.displayName } : {});
    const listingId = await listing(seller.providerId, {
      items: [
        { name: "Dumplings", priceAmount: options.priceAmount ?? 1250, currency: options.currency ?? "USD" },
      ],
    });
    const { rows } = await db.sql.query<{ id: string }>("SELECT id FROM menu_items WHERE listing_id = $1", [
      listingId,
    ]);
    const itemId = rows[0]?.id;
    if (!itemId) {
      throw new Error("orderable: no menu item");
    }

    return { seller, listingId, itemId };
  };

  const memoryMail = runtime.mail.memory;
  /** The code in the newest mail to `email` (the line that is the code alone). */
  const lastCode = (email: string): string => {
    const mail = memoryMail?.last(email);
    const code = mail?.text.match(/^(\d{6})$/m)?.[1];
    if (!code) {
      throw new Error(`no code mailed to ${email}`);
    }

    return code;
  };
  const app = createApp(runtime);
  const handler = createRequestHandler(app, { logger: runtime.logger, metrics: runtime.metrics });
  /** Sends a request through the same handler the server uses (without the socket). */
  const fetch = async (path: string, init?: RequestInit) =>
    handler(new Request(new URL(path, "http://agora.test"), init));

  const request = async <T = Record<string, unknown>>(
    method: string,
    path: string,
    init: RequestOptions = {},
  ): Promise<TestResponse<T>> => {
    const headers: Record<string, string> = { ...init.headers };
    let body: string | undefined = init.rawBody;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers["content-type"] ??= "application/json";
    }
    if (body !== undefined) {
      headers["content-length"] ??= String(Buffer.byteLength(body));
    }
    if (init.token) {
      headers.authorization = `Bearer ${init.token}`;
    }
    const response = await fetch(path, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get("content-type") ?? "").includes("json") && text) {
      parsed = JSON.parse(text);
    }

    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };

  return {
    app,
    handler,
    fetch,
    runtime,
    config,
    clock,
    logs,
    db: target.db,
    databaseUrl: target.url,
    createUser,
    openSession,
    signIn,
    lastCode,
    mails: memoryMail,
    /** One outbox batch, as the worker runs it (the harness starts no worker of its own). */
    runOutboxOnce: (batch?: OutboxBatchOptions) => runOutboxOnce(runtime.outbox, batch),
    categoryId,
    provider,
    listing,
    orderable,
    request,
    get: <T = Record<string, unknown>>(path: string, init?: RequestOptions) => request<T>("GET", path, init),
    post: <T = Record<string, unknown>>(path: string, body?: unknown, init?: RequestOptions) =>
      request<T>("POST", path, { ...init, ...(body === undefined ? {} : { body }) }),
    patch: <T = Record<string, unknown>>(path: string, body?: unknown, init?: RequestOptions) =>
      request<T>("PATCH", path, { ...init, ...(body === undefined ? {} : { body }) }),
    put: <T = Record<string, unknown>>(path: string, body?: unknown, init?: RequestOptions) =>
      request<T>("PUT", path, { ...init, ...(body === undefined ? {} : { body }) }),
    delete: <T = Record<string, unknown>>(path: string, init?: RequestOptions) =>
      request<T>("DELETE", path, init),
    async close() {
      await runtime.close();
      await target.dispose();
    },
  };
};
