// Behind Debian's PgBouncer (1.18) in transaction mode, which keeps no prepared statements across
// transactions: with DATABASE_PREPARED_STATEMENTS=unnamed the suite's concurrency tests pass
// through it (the realtime LISTEN connection direct, as DATABASE_LISTEN_URL sets it); with named
// statements a lost or doubled one is a 503 (never a 500) and one loud log line naming the setting.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "@agora/db/client";
import { migrate } from "@agora/db/migrator";
import { seedCatalog } from "@agora/db/seed";
import { createEmptyPostgresDatabase, onPostgres, testDatabaseUrl } from "@agora/db/test/databases";
import { uuidV7Ids } from "@agora/domain/common/ids";
import { testConfig } from "@agora/process/config";
import { databaseOptions } from "@agora/process/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogCapture } from "../test/harness";
import { findPgBouncer, type PgBouncer, startPgBouncer } from "../test/pgbouncer";
import { createHttpHandler } from "./app";
import { createDeps } from "./deps";

const binary = findPgBouncer();
const apiRoot = fileURLToPath(new URL("..", import.meta.url));

/** The PostgreSQL-only tests that run requests in parallel (their describe titles), by file. */
const CONCURRENCY_SUITE = {
  files: [
    "src/modules/orders/orders.routes.int.test.ts",
    "src/modules/identity/identity.sessions.int.test.ts",
    "src/modules/chat/chat.routes.int.test.ts",
    "src/modules/chat/chat.realtime.int.test.ts",
    "src/modules/notifications/outbox-delivery.int.test.ts",
  ],
  titles:
    "under real concurrency|concurrency \\(PostgreSQL only|outbox workers in parallel|waking an idle worker|the LISTEN connection",
};

const why = !onPostgres
  ? "skipped: PostgreSQL only (TEST_DATABASE_URL), a pooler fronts a server"
  : !binary
    ? "skipped: pgbouncer is not installed (apt-get install pgbouncer; .ci/run installs it as root)"
    : "";

describe.skipIf(why !== "")(`PgBouncer in transaction mode in front of PostgreSQL ${why}`.trim(), () => {
  let bouncer: PgBouncer;

  beforeAll(async () => {
    // Five server connections per database, as the trial had.
    bouncer = await startPgBouncer(binary ?? "", testDatabaseUrl ?? "", { poolSize: 5 });
  });
  afterAll(async () => {
    await bouncer?.stop();
  });

  it("with DATABASE_PREPARED_STATEMENTS=unnamed the concurrency suite passes through it, LISTEN direct", async () => {
    const vitest = path.join(apiRoot, "node_modules/vitest/vitest.mjs");
    const child = spawn(
      process.execPath,
      // One file at a time: five server connections are shared by each file's pools.
      [
        vitest,
        "run",
        ...CONCURRENCY_SUITE.files,
        "-t",
        CONCURRENCY_SUITE.titles,
        "--no-file-parallelism",
        "--reporter=verbose",
      ],
      {
        cwd: apiRoot,
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          ...process.env,
          TEST_DATABASE_URL: bouncer.through(testDatabaseUrl ?? ""),
          TEST_DATABASE_DIRECT_URL: testDatabaseUrl,
          TEST_DATABASE_PREPARED_STATEMENTS: "unnamed",
          NO_COLOR: "1",
        },
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    const run = { status: await new Promise<number | null>((resolve) => child.on("exit", resolve)) };
    const passed = Number(/Tests\s+(\d+) passed/.exec(output)?.[1] ?? 0);
    expect({
      status: run.status,
      tail: run.status === 0 ? "" : `${output.slice(-4000)}\npgbouncer:\n${bouncer.output().slice(-2000)}`,
    }).toEqual({
      status: 0,
      tail: "",
    });
    // The titles select real tests: each describe ran (none filtered to nothing, none skipped).
    expect(passed).toBeGreaterThanOrEqual(10);
    for (const title of [
      "under real concurrency",
      "concurrency (PostgreSQL only",
      "outbox workers in parallel",
      "waking an idle worker",
      "the LISTEN connection",
    ]) {
      expect(output).toContain(title);
    }
    console.info(`through pgbouncer (transaction mode, unnamed statements): ${passed} tests passed`);
  }, 600_000);

  it("with named statements a lost or doubled prepared statement is 503, never 500, and logged once with the setting", async () => {
    // One server connection: every client connection of the pool shares it, so the second one to
    // prepare a statement finds it there already (what transaction pooling makes likely).
    const single = await startPgBouncer(binary ?? "", testDatabaseUrl ?? "", { poolSize: 1 });
    const target = await createEmptyPostgresDatabase();
    const direct = await openDatabase({ url: target.url });
    const logs = createLogCapture();
    try {
      await migrate(direct.sql);
      await seedCatalog(direct.sql, uuidV7Ids);
      const serve = async (preparedStatements: "named" | "unnamed") => {
        const config = testConfig({
          databaseUrl: single.through(target.url),
          databaseListenUrl: target.url,
          databasePreparedStatements: preparedStatements,
        });
        const database = await openDatabase(databaseOptions(config, "agora-test", undefined, logs.logger));
        const runtime = await createDeps(config, { database, logger: logs.logger });
        const handler = createHttpHandler(runtime);
        const round = () =>
          Promise.all(
            Array.from({ length: 12 }, async (_, index) => {
              const response = await handler(
                new Request(`http://agora.test/api/v1/listings?q=tea${index % 3}&limit=5`),
              );

              return { status: response.status, text: await response.text() };
            }),
          );
        try {
          return [...(await round()), ...(await round())];
        } finally {
          await runtime.close();
          await database.close();
        }
      };

      const named = await serve("named");
      const statuses = [...new Set(named.map((answer) => answer.status))].sort();
      expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
      const refused = named.filter((answer) => answer.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      for (const answer of refused) {
        expect(JSON.parse(answer.text)).toMatchObject({ error: { code: "service_unavailable" } });
        expect(answer.text).not.toMatch(/prepared statement|SELECT|listing/i);
      }
      const loud = logs.lines.filter((line) => String(line.msg).startsWith("DATABASE CONFIGURATION FAULT"));
      expect(loud).toHaveLength(1);
      expect(loud[0]).toMatchObject({ setting: "DATABASE_PREPARED_STATEMENTS=unnamed" });
      expect(String(loud[0]?.msg)).toContain("DATABASE_PREPARED_STATEMENTS=unnamed");
      expect(logs.raw.join("\n")).not.toMatch(/SELECT .* FROM/);
      expect(logs.lines.some((line) => line.msg === "unhandled error")).toBe(false);

      const unnamed = await serve("unnamed");
      expect(unnamed.map((answer) => answer.status)).toEqual(unnamed.map(() => 200));
    } finally {
      await direct.close();
      await target.drop();
      await single.stop();
    }
  }, 60_000);
});
