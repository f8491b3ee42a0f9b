import { createServer, type Server } from "node:net";
import { AppError } from "@agora/domain/common/app-error";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type DatabaseTimeouts, openDatabase } from "../src/client";
import {
  DatabaseMisconfiguredError,
  DatabaseUnavailableError,
  isConnectionFailure,
} from "../src/unavailable";
import { createEmptyPostgresDatabase, onPostgres } from "./databases";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP port on which nothing listens (bound, closed, and not reused this soon). */
const closedPort = async (): Promise<number> => {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));

  return typeof address === "object" && address ? address.port : 1;
};

const rejection = async (work: Promise<unknown>): Promise<unknown> =>
  work.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );

describe("which errors mean the database is unavailable", () => {
  it("counts socket errors, connection SQLSTATEs, pool timeouts and statement timeouts", () => {
    for (const error of [
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
      Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
      new Error("Connection terminated unexpectedly"),
      new Error("Connection terminated due to connection timeout"),
      new Error("timeout exceeded when trying to connect"),
      new Error("Query read timeout"),
      new Error("Client has encountered a connection error and is not queryable"),
      Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
      Object.assign(new Error("the database system is starting up"), { code: "57P03" }),
      Object.assign(new Error("the database system is shutting down"), { code: "57P03" }),
      Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" }),
      Object.assign(new Error("sorry, too many clients already"), { code: "53300" }),
      Object.assign(new Error("connection failure"), { code: "08006" }),
      Object.assign(new AggregateError([Object.assign(new Error("refused"), { code: "ECONNREFUSED" })]), {}),
    ]) {
      expect(isConnectionFailure(error), error.message).toBe(true);
    }
  });

  it("leaves refusals, bad SQL and other dependencies' failures alone", () => {
    const mailFailure = new Error("SMTP relay did not accept the message", {
      cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    });
    for (const error of [
      Object.assign(new Error("duplicate key value violates unique constraint"), { code: "23505" }),
      Object.assign(new Error('relation "nope" does not exist'), { code: "42P01" }),
      Object.assign(new Error("invalid byte sequence for encoding"), { code: "22021" }),
      Object.assign(new Error("password authentication failed"), { code: "28P01" }),
      mailFailure,
      new Error("anything else"),
      "a string",
      null,
    ]) {
      expect(isConnectionFailure(error)).toBe(false);
    }
  });

  it("is the wire's 503 service_unavailable with Retry-After, and keeps the driver's error out of its message", () => {
    const cause = new Error("read ECONNRESET at 10.0.0.7:5432");
    const error = new DatabaseUnavailableError(cause);
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe("service_unavailable");
    expect(error.retryAfterSeconds).toBe(1);
    expect(error.message).not.toContain("ECONNRESET");
    expect(error.cause).toBe(cause);
  });
});

describe("a PostgreSQL URL whose server does not answer", () => {
  it("fails a query and a transaction with DatabaseUnavailableError within the acquire timeout", async () => {
    const db = await openDatabase({
      url: `postgresql://postgres@127.0.0.1:${await closedPort()}/agora`,
      timeouts: { acquireMs: 1_000, statementMs: 1_000, idleInTransactionMs: 5_000 },
    });
    try {
      const started = performance.now();
      expect(await rejection(db.ping())).toBeInstanceOf(DatabaseUnavailableError);
      expect(await rejection(db.sql.transaction((tx) => tx.query("SELECT 1")))).toBeInstanceOf(
        DatabaseUnavailableError,
      );
      expect(performance.now() - started).toBeLessThan(2_000);
      // Prisma's client, made (and its modules loaded) at its first use, translates the same way.
      const prisma = await db.prisma();
      expect(await rejection(prisma.category.findMany())).toBeInstanceOf(DatabaseUnavailableError);
      expect(await rejection(prisma.$queryRawUnsafe("SELECT 1"))).toBeInstanceOf(DatabaseUnavailableError);
    } finally {
      await db.close();
    }
  });
});

describe.skipIf(!onPostgres)(
  "losing the PostgreSQL connection (PostgreSQL only: PGlite runs in-process and has no connection to lose)",
  () => {
    let target: Awaited<ReturnType<typeof createEmptyPostgresDatabase>>;
    let admin: Database;
    const open = (timeouts: Partial<DatabaseTimeouts> = {}, poolMax = 4) =>
      openDatabase({
        url: target.url,
        poolMax,
        applicationName: "agora-unavailable-test",
        timeouts: { acquireMs: 2_000, statementMs: 2_000, idleInTransactionMs: 10_000, ...timeouts },
      });
    const terminate = (pid: number) => admin.sql.query("SELECT pg_terminate_backend($1)", [pid]);

    beforeAll(async () => {
      target = await createEmptyPostgresDatabase();
      admin = await openDatabase({ url: target.url, poolMax: 2 });
      await admin.sql.exec("CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL)");
    });
    afterAll(async () => {
      await admin?.close();
      await target?.drop();
    });

    it("a transaction whose connection is terminated mid-way is DatabaseUnavailableError, leaves nothing written, and the pool recovers", async () => {
      const db = await open();
      try {
        const failure = await rejection(
          db.sql.transaction(async (tx) => {
            await tx.query("INSERT INTO notes (id, body) VALUES (1, 'half')");
            const { rows } = await tx.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
            await terminate(rows[0]?.pid ?? 0);
            await sleep(50);
            await tx.query("INSERT INTO notes (id, body) VALUES (2, 'other half')");
          }),
        );
        expect(failure).toBeInstanceOf(DatabaseUnavailableError);
        const { rows } = await db.sql.query<{ count: string }>("SELECT count(*) AS count FROM notes");
        expect(Number(rows[0]?.count)).toBe(0);
      } finally {
        await db.close();
      }
    });

    it("idle connections the server drops are replaced without an unhandled error", async () => {
      const db = await open();
      try {
        await Promise.all([1, 2, 3].map(() => db.sql.query("SELECT pg_sleep(0.05)")));
        await admin.sql.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'agora-unavailable-test'",
        );
        await sleep(100);
        await db.ping();
      } finally {
        await db.close();
      }
    });

    it("a statement past the statement timeout is DatabaseUnavailableError; a transaction can ask for a longer one", async () => {
      const db = await open({ statementMs: 200 });
      try {
        const started = performance.now();
        expect(await rejection(db.sql.query("SELECT pg_sleep(2)"))).toBeInstanceOf(DatabaseUnavailableError);
        expect(performance.now() - started).toBeLessThan(1_500);
        const { rows } = await db.sql.transaction(
          (tx) => tx.query<{ done: boolean }>("SELECT pg_sleep(0.4) IS NOT NULL AS done"),
          { statementTimeoutMs: 5_000 },
        );
        expect(rows[0]?.done).toBe(true);
        // 0 turns it off for the transaction (the migrator's choice).
        const unbounded = await db.sql.transaction(
          (tx) => tx.query<{ done: boolean }>("SELECT pg_sleep(0.4) IS NOT NULL AS done"),
          { statementTimeoutMs: 0 },
        );
        expect(unbounded.rows[0]?.done).toBe(true);
        // The longer timeout was the transaction's alone.
        expect(await rejection(db.sql.query("SELECT pg_sleep(2)"))).toBeInstanceOf(DatabaseUnavailableError);
      } finally {
        await db.close();
      }
    });

    it("the server ends a transaction left idle past the idle-in-transaction timeout, rolling it back", async () => {
      const db = await open({ idleInTransactionMs: 200 });
      try {
        const failure = await rejection(
          db.sql.transaction(async (tx) => {
            await tx.query("INSERT INTO notes (id, body) VALUES (3, 'abandoned')");
            await sleep(600);
            await tx.query("SELECT 1");
          }),
        );
        expect(failure).toBeInstanceOf(DatabaseUnavailableError);
        const { rows } = await db.sql.query<{ count: string }>(
          "SELECT count(*) AS count FROM notes WHERE id = 3",
        );
        expect(Number(rows[0]?.count)).toBe(0);
      } finally {
        await db.close();
      }
    });

    it("waiting longer than the acquire timeout for a connection is DatabaseUnavailableError", async () => {
      const db = await open({ acquireMs: 300 }, 1);
      try {
        const holding = db.sql.transaction(() => sleep(800));
        await sleep(50);
        const started = performance.now();
        expect(await rejection(db.sql.query("SELECT 1"))).toBeInstanceOf(DatabaseUnavailableError);
        expect(performance.now() - started).toBeLessThan(700);
        await holding;
        await db.ping();
      } finally {
        await db.close();
      }
    });
  },
);

describe.skipIf(!onPostgres)(
  "prepared statements a pooler lost or doubled (PostgreSQL only: PGlite has no pooler in front)",
  () => {
    let target: { url: string; drop(): Promise<void> };
    const faults: Error[] = [];
    let named: Database;
    let unnamed: Database;

    beforeAll(async () => {
      target = await createEmptyPostgresDatabase();
      named = await openDatabase({
        url: target.url,
        poolMax: 2,
        onConfigurationFault: (e) => faults.push(e),
      });
      unnamed = await openDatabase({ url: target.url, poolMax: 2, preparedStatements: "unnamed" });
    });
    afterAll(async () => {
      await named?.close();
      await unnamed?.close();
      await target?.drop();
    });

    it("'does not exist' (26000) and 'already exists' (42P05) are DatabaseMisconfiguredError: 503, the setting named, reported, no SQL", async () => {
      // What a transaction-mode pooler does: executes on a server connection that never prepared it.
      const missing = await rejection(named.sql.query("EXECUTE agora_missing_statement"));
      expect(missing).toBeInstanceOf(DatabaseMisconfiguredError);
      expect(missing).toBeInstanceOf(DatabaseUnavailableError);
      expect(missing).toMatchObject({
        code: "service_unavailable",
        setting: "DATABASE_PREPARED_STATEMENTS=unnamed",
      });
      expect((missing as Error).message).not.toMatch(/agora_missing_statement|EXECUTE/);
      // ... and prepares again on a server connection that already has it.
      const doubled = await rejection(
        named.sql.transaction(async (tx) => {
          await tx.exec("PREPARE agora_twice AS SELECT 1");
          await tx.exec("PREPARE agora_twice AS SELECT 1");
        }),
      );
      expect(doubled).toBeInstanceOf(DatabaseMisconfiguredError);
      expect(faults).toEqual([missing, doubled]);
      // Any other error stays what it was.
      const syntax = await rejection(named.sql.query("SELEC 1"));
      expect(syntax).not.toBeInstanceOf(DatabaseUnavailableError);
      expect(faults).toHaveLength(2);
    });

    it("names the repositories' statements (prepared once per connection) unless told `unnamed`", async () => {
      const prepared = (db: Database) =>
        db.sql.transaction(async (tx) => {
          await tx.query("SELECT $1::int AS n", [1], "agora_probe_statement");
          const { rows } = await tx.query<{ name: string }>(
            "SELECT name FROM pg_prepared_statements WHERE name = 'agora_probe_statement'",
          );

          return rows.map((row) => row.name);
        });
      expect(await prepared(named)).toEqual(["agora_probe_statement"]);
      expect(await prepared(unnamed)).toEqual([]);
      // Prisma's statements too: its adapter is given no name generator.
      await (await unnamed.prisma()).$queryRawUnsafe("SELECT 1");
      const viaPrisma = await unnamed.sql.transaction(async (tx) => {
        const { rows } = await tx.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'prisma_%'",
        );

        return rows[0]?.n;
      });
      expect(viaPrisma).toBe(0);
    });
  },
);
