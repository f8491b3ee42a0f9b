import { mkdirSync } from "node:fs";
import path from "node:path";
import { createPgliteSql } from "../sql";
import type { Database, DatabaseOptions } from "./database";
import { lockDataDir } from "./pglite-lock";
import { translatingErrors } from "./prisma-client";
import { routedPglite } from "./transaction-routing";

export const connectPglite = async (options: DatabaseOptions): Promise<Database> => {
  const dataDir = options.dataDir ?? "memory://";
  let unlock = () => {};
  if (!dataDir.startsWith("memory://")) {
    mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
    unlock = await lockDataDir(dataDir, options.lockWaitMs ?? 5_000);
  }
  // Loaded here, not at the top: a process on PostgreSQL never loads the embedded database's modules.
  const [{ PGlite }, { citext }, { pg_trgm }, { PrismaPGlite }, { PrismaClient }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/citext"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("pglite-prisma-adapter"),
    import("../generated/prisma/client"),
  ]).catch((error: unknown) => {
    unlock();
    throw error;
  });
  const db = await PGlite.create(dataDir, {
    extensions: { citext, pg_trgm },
    // Durability (docs/operations.md, "Backups that restore"): fsync is off, and over Node's
    // file system each commit's WAL is written (to the kernel) before the commit returns, so a
    // `kill -9` of the process loses no acknowledged write; a power loss or kernel crash may lose
    // the last ones. That rests on synchronous_commit staying on (off, commits wait in WAL buffers
    // that single-user PGlite never flushes on its own: the kill -9 test lost every write), so it
    // is pinned on the command line, over postgresql.conf and ALTER SYSTEM.
    startParams: [...PGlite.defaultStartParams, "-c", "synchronous_commit=on"],
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  }).catch((error: unknown) => {
    unlock();
    throw error;
  });
  // Made at once on PGlite (development and tests only): a client first made inside a traced
  // request there left that request's span unexported (telemetry.int.test.ts; not understood yet,
  // the same test passes with PostgreSQL's client made at first use).
  const prisma = translatingErrors(
    new PrismaClient({ adapter: new PrismaPGlite(routedPglite(db, options.tracer)) }),
  );

  return {
    kind: "pglite",
    listenTarget: { kind: "pglite", db },
    prisma: () => Promise.resolve(prisma),
    sql: createPgliteSql(db, options.tracer),
    async ping() {
      await db.query("SELECT 1");
    },
    poolStats: () => undefined,
    async close() {
      await prisma.$disconnect();
      await db.close();
      unlock();
    },
  };
};
