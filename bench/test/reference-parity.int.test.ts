// The raw reference answers what the API answers: a ratio to a reference that does less (fewer
// statements, a smaller answer) would flatter neither side. GET /api/v1/listings/{id} is compared
// byte for byte (the request id aside) on a small seeded marketplace. It needs a PostgreSQL server
// (both servers share one database) and the built API (`pnpm turbo run build --filter=@agora/api`).
import { type ChildProcess, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "@agora/testing/processes";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiArgs, apiEnv, referenceArgs, repo, startNode, waitFor200 } from "../src/common.ts";
import { seedMarketplace } from "../src/seed-marketplace.ts";

const serverUrl = process.env.TEST_DATABASE_URL || undefined;
const built = existsSync(path.join(repo, "apps/api/dist/start.js"));
const skipped = !serverUrl
  ? " — skipped: PostgreSQL only (set TEST_DATABASE_URL)"
  : !built
    ? " — skipped: build the API first (pnpm turbo run build --filter=@agora/api)"
    : "";

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
    const env = apiEnv(
      {
        databaseUrl: databaseUrl.toString(),
        dataDir,
        tokenSecret: "parity-secret-parity-secret-parity-secret-0123456789",
      },
      { WORKER: "off", LOG_LEVEL: "warn" },
    );
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
    const api = startNode(apiArgs("start.js", []), { ...env, PORT: String(apiPort) }, { quiet: true });
    const reference = startNode(referenceArgs(referencePort), env, { quiet: true });
    children.push(api, reference);
    apiUrl = `http://127.0.0.1:${apiPort}`;
    referenceUrl = `http://127.0.0.1:${referencePort}`;
    await Promise.all([
      waitFor200(`${apiUrl}/ready`, api, 120_000),
      waitFor200(`${referenceUrl}/health`, reference, 120_000),
    ]);
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
