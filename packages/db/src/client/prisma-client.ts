import type { PrismaClient } from "../generated/prisma/client";
import { DatabaseMisconfiguredError, translateDatabaseError } from "../unavailable";
import type { DatabaseOptions } from "./database";

// Prepared statements are cached per connection under a name derived from the SQL text, so the
// server parses and plans each distinct statement once per connection instead of per request.
const statementNames = new Map<string, string>();
export const statementName = (text: string): string => {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `prisma_${statementNames.size.toString(36)}`;
    statementNames.set(text, name);
  }

  return name;
};

/**
 * The client with Prisma's connection failures translated as the raw executors translate theirs
 * (DatabaseUnavailableError, the wire's 503): the extension changes no query, only what a failed
 * one throws, so the client keeps PrismaClient's type.
 */
export const translatingErrors = (
  prisma: PrismaClient,
  onConfigurationFault?: DatabaseOptions["onConfigurationFault"],
): PrismaClient =>
  prisma.$extends({
    query: {
      async $allOperations({ args, query }) {
        try {
          return await query(args);
        } catch (error) {
          const translated = translateDatabaseError(error);
          if (translated instanceof DatabaseMisconfiguredError) {
            onConfigurationFault?.(translated);
          }
          throw translated;
        }
      },
    },
  }) as unknown as PrismaClient;

/**
 * A PrismaClient made at its first use, its modules loaded then too. Loading Prisma's runtime and
 * the generated client adds to the API's idle resident memory; constructing a client deserializes
 * Prisma's parameterization graph of the whole schema (docs/performance.md, "Memory", has the
 * figures); its first query loads and compiles the query compiler. A process whose requests never
 * reach Prisma (a worker, listing reads) or a pool that serves only raw SQL (the embedded worker's)
 * pays none of it.
 *
 * The stand-in answers what the repositories ask of a client: `prisma.<model>.<operation>(args)`
 * and `prisma.$<method>(...)`, each a promise of the real call's result. Prisma's lazy request
 * objects (`$transaction([...])` batches, fluent relation calls) are not supported through it.
 */
export const lazyClient = (create: () => Promise<PrismaClient>) => {
  let client: Promise<PrismaClient> | undefined;
  const real = () => {
    client ??= create().catch((error: unknown) => {
      // A failed load (a missing module) is not kept: the next call tries again.
      client = undefined;
      throw error;
    });

    return client;
  };
  type Callable = (...args: unknown[]) => unknown;
  const member = (target: object, name: string): Callable => {
    const value: unknown = Reflect.get(target, name);
    if (typeof value !== "function") {
      throw new TypeError(`the Prisma client has no method ${name}`);
    }

    return (value as Callable).bind(target);
  };
  // Only string names are members; `then` is not, so awaiting a stand-in yields the stand-in.
  const isMember = (property: string | symbol): property is string =>
    typeof property === "string" && property !== "then";
  const delegates = new Map<string, object>();
  const delegate = (model: string) => {
    let found = delegates.get(model);
    if (found === undefined) {
      found = new Proxy(
        {},
        {
          get: (_, operation) =>
            isMember(operation)
              ? (...args: unknown[]) =>
                  real().then((value) => member(Reflect.get(value, model) as object, operation)(...args))
              : undefined,
        },
      );
      delegates.set(model, found);
    }

    return found;
  };
  const prisma = new Proxy({} as PrismaClient, {
    get(_, property) {
      if (!isMember(property)) {
        return undefined;
      }

      return property.startsWith("$")
        ? (...args: unknown[]) => real().then((value) => member(value, property)(...args))
        : delegate(property);
    },
  });

  return {
    prisma,
    /** Disconnects the client if it was ever made (or is being made). */
    disconnect: async () => {
      const made = await client?.catch(() => undefined);
      await made?.$disconnect();
    },
  };
};
