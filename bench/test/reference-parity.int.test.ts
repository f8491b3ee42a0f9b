// The raw reference answers what the API answers: a ratio to a reference that does less (fewer
// statements, a smaller answer) would flatter neither side. GET /api/v1/listings/{id} is compared
// byte for byte (the request id aside) on a small seeded marketplace. It needs a PostgreSQL server
// (both servers share one database) and the built API (`pnpm turbo run build --filter=@agora/api`).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedMarketplace } from "../src/seed-marketplace.ts";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const serverUrl = process.env.TEST_DATABASE_URL || undefined;
const built = existsSync(path.join(repo, "apps/api/dist/start.js"));
const skipped = !serverUrl
  ? " — skipped: PostgreSQL only (set TEST_DATABASE_URL)"
  : !built
    ? " — skipped: build the API first (pnpm turbo run build --filter=@agora/api)"
    : "";

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });

const waitFor = async (url: string) => {
  for (let i = 0; i < 1200; i += 1) {
    try {
      if ((await fetch(url)).ok) {
        return;
      }
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
};

describe.skipIf(skipped !== "")(`the bench's raw reference${skipped}`, () => {
  const databaseName = `agora_parity_${Date.now()}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "agora-parity-"));
  const children: ChildProcess[] = [];
  let admin: pg.Client;
  let apiUrl = "";
  let referenceUrl = "";
  let seeded: { listingIds: string[]; visibleListingIds: string[] };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${databaseName}"`);
    const databaseUrl = new URL(serverUrl ?? "");
    databaseUrl.pathname = `/${databaseName}`;
    const env = {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl.toString(),
      TOKEN_SECRET: "parity-secret-parity-secret-parity-secret-0123456789",
      APP_ENV: "development",
      DATA_DIR: dataDir,
      HOST: "127.0.0.1",
      WORKER: "off",
      LOG_LEVEL: "warn",
      LISTING_PLAN_PRICE_AMOUNT: "990",
      LISTING_PLAN_CURRENCY: "USD",
      LISTING_PLAN_DURATION_DAYS: "30",
    };
    for (const verb of ["migrate", "seed"]) {
      const result = spawnSync(process.execPath, ["apps/api/dist/cli.js", verb], {
        cwd: repo,
        env,
        encoding: "utf8",
      });
      expect(result.status, result.stderr).toBe(0);
    }
    const client = new pg.Client({ connectionString: databaseUrl.toString() });
    await client.connect();
    seeded = await seedMarketplace(client, { providers: 4, listingsPerProvider: 5, itemsPerListing: 3 });
    await client.end();
    const [apiPort, referencePort] = [await freePort(), await freePort()];
    children.push(
      spawn(process.execPath, ["apps/api/dist/start.js"], {
        cwd: repo,
        env: { ...env, PORT: String(apiPort) },
        stdio: "ignore",
      }),
      spawn(
        process.execPath,
        ["--import", "./bench/src/resolve-ts.ts", "bench/src/reference.ts", String(referencePort)],
        { cwd: repo, env, stdio: "ignore" },
      ),
    );
    apiUrl = `http://127.0.0.1:${apiPort}`;
    referenceUrl = `http://127.0.0.1:${referencePort}`;
    await Promise.all([waitFor(`${apiUrl}/ready`), waitFor(`${referenceUrl}/health`)]);
  }, 300_000);

  afterAll(async () => {
    for (const child of children) {
      child.kill("SIGTERM");
    }
    await admin?.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
    await admin?.end();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const read = async (base: string, id: string) => {
    const response = await fetch(`${base}/api/v1/listings/${id}`);

    return {
      status: response.status,
      text: (await response.text()).replace(/"request_id":"[^"]*"/, '"request_id":""'),
    };
  };

  it("answers GET /listings/{id} byte for byte as the API does (request id aside), and 404 where it does", async () => {
    const hidden = seeded.listingIds.filter((id) => !seeded.visibleListingIds.includes(id));
    expect(seeded.visibleListingIds.length).toBeGreaterThan(0);
    expect(hidden.length).toBeGreaterThan(0);
    for (const id of seeded.visibleListingIds) {
      const [api, reference] = await Promise.all([read(apiUrl, id), read(referenceUrl, id)]);
      expect(api.status).toBe(200);
      expect(JSON.parse(api.text).data.menu_items[0]).toHaveProperty("media", []);
      expect(reference).toEqual(api);
    }
    for (const id of hidden) {
      const [api, reference] = await Promise.all([read(apiUrl, id), read(referenceUrl, id)]);
      expect([api.status, reference.status]).toEqual([404, 404]);
    }
  });
});
