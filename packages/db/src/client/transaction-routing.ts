import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { openTransaction, type QueryTracer } from "../sql";

const nestedTransaction = () =>
  new Error("a Prisma transaction cannot start inside a unit of work: use the unit of work's repositories");

/**
 * The pool as Prisma's adapter sees it: queries go to the connection of the unit of work running
 * in the current async context (see `openTransaction`), else to the pool. One PrismaClient thus
 * serves both plain reads and repositories inside a transaction (a client per transaction would be
 * slow to start: docs/performance.md, "Raw SQL and Prisma, measured").
 */
export const routedPool = (pool: pg.Pool, tracer: QueryTracer | undefined): pg.Pool => {
  const routed = Object.create(pool) as pg.Pool;
  const connectionOf = () => {
    const open = openTransaction.getStore();

    return open && "pg" in open ? open.pg : pool;
  };
  const send = (...args: Parameters<pg.Pool["query"]>) =>
    (connectionOf().query as (...a: Parameters<pg.Pool["query"]>) => Promise<unknown>)(...args);
  Object.assign(routed, {
    query: tracer
      ? (...args: Parameters<pg.Pool["query"]>) => {
          // Prisma's statement names are generated (prisma_N): they say nothing, so none is passed.
          const first = args[0] as string | { text: string };
          const statement = { text: typeof first === "string" ? first : first.text, name: undefined };

          return tracer(statement, () => send(...args));
        }
      : send,
    connect: () => (openTransaction.getStore() ? Promise.reject(nestedTransaction()) : pool.connect()),
    on: (...args: Parameters<pg.Pool["on"]>) => {
      pool.on(...args);

      return routed;
    },
    removeListener: (...args: Parameters<pg.Pool["removeListener"]>) => {
      pool.removeListener(...args);

      return routed;
    },
  });

  return routed;
};

/** The same routing for PGlite: inside a unit of work, Prisma's queries run on its transaction. */
export const routedPglite = (db: PGlite, tracer: QueryTracer | undefined): PGlite => {
  const routed = Object.create(db) as PGlite;
  const connectionOf = () => {
    const open = openTransaction.getStore();

    return open && "pglite" in open ? open.pglite : db;
  };
  const query = (...args: Parameters<PGlite["query"]>) => connectionOf().query(...args);
  const exec = (...args: Parameters<PGlite["exec"]>) => connectionOf().exec(...args);
  Object.assign(routed, {
    query: tracer
      ? (...args: Parameters<PGlite["query"]>) =>
          tracer({ text: args[0], name: undefined }, () => query(...args))
      : query,
    exec: tracer
      ? (...args: Parameters<PGlite["exec"]>) =>
          tracer({ text: args[0], name: undefined }, () => exec(...args))
      : exec,
    transaction: (...args: Parameters<PGlite["transaction"]>) =>
      openTransaction.getStore() ? Promise.reject(nestedTransaction()) : db.transaction(...args),
  });

  return routed;
};
