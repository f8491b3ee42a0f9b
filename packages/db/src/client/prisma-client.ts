import type { PrismaClient } from "../generated/prisma/client";
import { DatabaseMisconfiguredError, translateDatabaseError } from "../unavailable";

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
 * (DatabaseUnavailableError, the wire's 503). The extension changes no query, only what a failed
 * one throws.
 */
export const translatingErrors = (
  prisma: PrismaClient,
  onConfigurationFault?: (error: DatabaseMisconfiguredError) => void,
) =>
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
  });

/**
 * The client the repositories use, as `$extends` types it: PrismaClient's models and methods, but
 * for `$on`, which Prisma leaves off an extended client.
 */
export type ExtendedPrismaClient = ReturnType<typeof translatingErrors>;

/**
 * A loader of the client `create` makes: the first call makes it, every later call has the same
 * one. A load that fails (a missing module) is not kept, so the next call tries again.
 *
 * It is made at its first use because it costs memory a process may never need: loading Prisma's
 * runtime and the generated client adds to the API's idle resident memory, constructing a client
 * deserializes Prisma's parameterization graph of the whole schema (docs/performance.md, "Memory",
 * has the figures), and its first query loads and compiles the query compiler. The Prisma-backed
 * repositories call the loader in the methods that query, not when they are built, so a process
 * whose requests never reach Prisma (a worker, listing reads) or a pool that serves only raw SQL
 * (the embedded worker's) pays none of it.
 */
export const prismaLoader = (create: () => Promise<ExtendedPrismaClient>) => {
  let client: Promise<ExtendedPrismaClient> | undefined;

  return {
    prisma: (): Promise<ExtendedPrismaClient> => {
      client ??= create().catch((error: unknown) => {
        client = undefined;
        throw error;
      });

      return client;
    },
    /** Disconnects the client if it was made (or is being made). */
    async disconnect() {
      const made = await client?.catch(() => undefined);
      await made?.$disconnect();
    },
  };
};
