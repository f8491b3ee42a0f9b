// The bench's shared data: a database client for one piece of work, and the seeded worlds
// (each seeded once per run, on first use, whichever scenario asks first).
import pg from "pg";
import type { BenchContext } from "./scenario.types.ts";
import { type SeededCommunity, seedCommunity } from "./seed-community.ts";
import { type SeededMarketplace, seedMarketplace } from "./seed-marketplace.ts";

export const withClient = async <T>(
  databaseUrl: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

let seeded: Promise<SeededMarketplace> | undefined;
/** 10,000 providers, 100,000 listings, 300,000 menu items (seed-marketplace.ts). */
export const marketplace = (databaseUrl: string) => {
  seeded ??= withClient(databaseUrl, (client) => seedMarketplace(client));

  return seeded;
};

let community: Promise<SeededCommunity> | undefined;
/** 10,000 members, 100,000 moments, 1,000,000 likes, readers with blocks (seed-community.ts). */
export const communityData = ({
  databaseUrl,
  tokenSecret,
}: Pick<BenchContext, "databaseUrl" | "tokenSecret">) => {
  community ??= withClient(databaseUrl, (client) => seedCommunity(client, tokenSecret));

  return community;
};
