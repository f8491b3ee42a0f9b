import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { openTransaction, type QueryTracer } from "../sql";

const nestedTransaction = () =>
  new Error("a Prisma transaction cannot start inside a unit of work: use the unit of work's repositories");

/**
 * `target` behind a Proxy that answers every member as `target` does, except the members `routes`
 * names, which it answers with the routed function instead. Every other method is the target's own,
 * called on the target itself: PGlite keeps its state in private fields, which only the instance can
 * read, and an EventEmitter's methods must change the emitter's own listeners. Such a method returns
 * what the target's returns, so `on` returns the target (a chained `.query` would not be routed; no
 * adapter chains). A Proxy has its target's prototype, so `instanceof` answers as for the target.
 */
const routing = <T extends object>(target: T, routes: Partial<Record<keyof T, unknown>>): T =>
  new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(routes, property)) {
        return routes[property as keyof T];
      }
      const value: unknown = Reflect.get(object, property);

      return typeof value === "function" ? value.bind(object) : value;
    },
  });

/**
 * The pool as Prisma's adapter sees it: the pool itself, except that a statement sent while a unit
 * of work runs in the current async context (see `openTransaction`) goes to that unit's connection.
 * One PrismaClient thus serves both plain reads and repositories inside a transaction (a client per
 * transaction would be slow to start: docs/performance.md, "Raw SQL and Prisma, measured").
 *
 * What it relies on: a pg.Pool runs a statement through two public methods only, `query` and a
 * client of one's own from `connect`. `query` is routed; `connect` (its promise form, the one the
 * adapter calls) is how `@prisma/adapter-pg` opens a Prisma transaction, which inside a unit of
 * work is refused rather than left to commit apart from it. Whatever else of the pool's public
 * interface the adapter uses is the pool's own (today: `options`, and `on` and `removeListener` for
 * its 'error' listener; it calls `end` only when given `disposeExternalPool`, which we do not give).
 * And the adapter takes a pool as the one to use only if it is `instanceof pg.Pool` (anything else
 * it reads as a configuration and makes a pool of its own), which the Proxy is.
 */
export const routedPool = (pool: pg.Pool, tracer: QueryTracer | undefined): pg.Pool => {
  const connectionOf = () => {
    const open = openTransaction.getStore();

    return open && "pg" in open ? open.pg : pool;
  };
  const send = (...args: Parameters<pg.Pool["query"]>) =>
    (connectionOf().query as (...a: Parameters<pg.Pool["query"]>) => Promise<unknown>)(...args);

  return routing(pool, {
    query: tracer
      ? (...args: Parameters<pg.Pool["query"]>) => {
          // Prisma's statement names are generated (prisma_N): they say nothing, so none is passed.
          const first = args[0] as string | { text: string };
          const statement = { text: typeof first === "string" ? first : first.text, name: undefined };

          return tracer(statement, () => send(...args));
        }
      : send,
    connect: () => (openTransaction.getStore() ? Promise.reject(nestedTransaction()) : pool.connect()),
  });
};

/**
 * The same routing for PGlite: inside a unit of work, Prisma's statements run on its transaction,
 * and a transaction of Prisma's own is refused there.
 *
 * What it relies on: `pglite-prisma-adapter` sends its statements through `query` and `exec` and
 * opens its transactions with `transaction`. Those are routed, and so is `sql`, the tagged-template
 * form of `query` (untraced: the tracer is for what the adapter sends). PGlite's remaining ways to
 * run a statement (`describeQuery`, the wire-protocol `execProtocol…` methods, `listen` and
 * `unlisten`) stay the database's own and are not routed; the adapter uses none of them.
 */
export const routedPglite = (db: PGlite, tracer: QueryTracer | undefined): PGlite => {
  const connectionOf = () => {
    const open = openTransaction.getStore();

    return open && "pglite" in open ? open.pglite : db;
  };
  const query = (...args: Parameters<PGlite["query"]>) => connectionOf().query(...args);
  const exec = (...args: Parameters<PGlite["exec"]>) => connectionOf().exec(...args);

  return routing(db, {
    query: tracer
      ? (...args: Parameters<PGlite["query"]>) =>
          tracer({ text: args[0], name: undefined }, () => query(...args))
      : query,
    sql: (...args: Parameters<PGlite["sql"]>) => connectionOf().sql(...args),
    exec: tracer
      ? (...args: Parameters<PGlite["exec"]>) =>
          tracer({ text: args[0], name: undefined }, () => exec(...args))
      : exec,
    transaction: (...args: Parameters<PGlite["transaction"]>) =>
      openTransaction.getStore() ? Promise.reject(nestedTransaction()) : db.transaction(...args),
  });
};
