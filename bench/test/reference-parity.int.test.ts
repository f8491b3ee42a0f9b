// The raw reference answers what the API answers: a ratio to a reference that does less (fewer
// statements, a smaller answer) would flatter neither side. GET /api/v1/listings/{id} is compared
// byte for byte (the request id aside) on a small seeded marketplace. It needs a PostgreSQL server
// (both servers share one database) and the built API (`pnpm turbo run build --filter=@agora/api`).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "@agora/testing/processes";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  agoraDutyHeaders,
  apiArgs,
  apiEnv,
  referenceArgs,
  repo,
  startNode,
  waitFor200,
} from "../src/common.ts";
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
  let dutiesUrl = "";
  let dutiesStdout = "";
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
    // The reference with Agora's duties (BENCH_REFERENCE_DUTIES=1), its log read from its stdout.
    const dutiesPort = await freePort();
    const duties = spawn(process.execPath, referenceArgs(dutiesPort), {
      cwd: repo,
      env: { ...env, REFERENCE_DUTIES: await agoraDutyHeaders(apiUrl) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(duties);
    duties.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      dutiesStdout += chunk;
    });
    dutiesUrl = `http://127.0.0.1:${dutiesPort}`;
    await waitFor200(`${dutiesUrl}/health`, duties, 120_000);
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

  it("with its duties, sends Agora's headers and writes Agora's access-log line for each request", async () => {
    const [api, duties] = await Promise.all([fetch(`${apiUrl}/health`), fetch(`${dutiesUrl}/health`)]);
    const headers = (answer: Response) =>
      Object.fromEntries(
        [...answer.headers].filter(([name]) => !["date", "x-request-id", "content-length"].includes(name)),
      );
    expect(headers(duties)).toEqual(headers(api));
    expect(Object.keys(headers(api))).toContain("strict-transport-security");
    const body = (await duties.json()) as { request_id: string };
    expect(duties.headers.get("x-request-id")).toBe(body.request_id);
    await api.arrayBuffer();

    // The access-log line goes out within its 250 ms flush, with the fields of Agora's line.
    const deadline = Date.now() + 5_000;
    while (!dutiesStdout.includes(body.request_id) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const line = dutiesStdout.split("\n").find((text) => text.includes(body.request_id));
    expect(JSON.parse(line ?? "null")).toMatchObject({
      level: 30,
      service: "agora",
      request_id: body.request_id,
      method: "GET",
      route: "/health",
      status: 200,
      msg: "request",
      duration_ms: expect.any(Number),
      time: expect.any(Number),
    });
  });
});
