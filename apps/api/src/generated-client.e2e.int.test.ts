// The served OpenAPI document through a third-party generator: @hey-api/openapi-ts makes a client
// from the document a listening server serves (into test/generated-client/sdk, gitignored, anew at
// each run), strict tsc compiles it with test/generated-client/flows.ts, and one flow per area runs
// through it against the server. Proof that the document serves clients we did not write.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test/harness";
import { startServer, type TestServer } from "../test/realtime";
import { type LocalS3, startLocalS3 } from "../test/s3";

const folder = fileURLToPath(new URL("../test/generated-client/", import.meta.url));
const sdk = path.join(folder, "sdk");
const heyApi = path.dirname(fileURLToPath(import.meta.resolve("@hey-api/openapi-ts/package.json")));
const typescript = path.dirname(fileURLToPath(import.meta.resolve("typescript/package.json")));

type Account = { token: string; userId: string };
/** What test/generated-client/flows.ts asks of the test (its `Hooks`; that file is not typechecked here). */
type Hooks = {
  mailedCode(email: string): string;
  member(): Promise<Account>;
  admin(): Promise<Account>;
  provider(): Promise<Account & { providerId: string }>;
  orderable(): Promise<{ seller: Account; listingId: string; itemId: string }>;
  deliverEvents(): Promise<void>;
};
type Flow = (baseUrl: string, hooks: Hooks) => Promise<void>;

const run = (args: string[]) => {
  const result = spawnSync(process.execPath, args, { cwd: folder, encoding: "utf8", timeout: 240_000 });

  return { status: result.status, output: `${result.stdout}${result.stderr}` };
};

describe("a client generated from the served document by @hey-api/openapi-ts", () => {
  let h: Harness;
  let server: TestServer;
  let s3: LocalS3;
  let baseUrl: string;
  let flows: Record<string, Flow>;

  beforeAll(async () => {
    s3 = await startLocalS3();
    h = await createHarness({ config: { s3: s3.config } });
    server = await startServer(h);
    baseUrl = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server?.close();
    await h?.close();
    await s3?.close();
  });

  const account = (signed: { accessToken: string; user: { id: string } }): Account => ({
    token: signed.accessToken,
    userId: signed.user.id,
  });
  const hooks: Hooks = {
    mailedCode: (email) => h.lastCode(email),
    member: async () => account(await h.signIn()),
    admin: async () => account(await h.signIn({ role: "admin" })),
    provider: async () => {
      const seller = await h.provider();

      return { ...account(seller), providerId: seller.providerId };
    },
    orderable: async () => {
      const { seller, listingId, itemId } = await h.orderable();

      return { seller: account(seller), listingId, itemId };
    },
    deliverEvents: async () => {
      await h.runOutboxOnce();
    },
  };

  it("is generated from GET /api/v1/openapi.json: a function per operation", async () => {
    const response = await fetch(`${baseUrl}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
    rmSync(sdk, { recursive: true, force: true });
    mkdirSync(sdk, { recursive: true });
    const input = path.join(sdk, "openapi.json");
    writeFileSync(input, JSON.stringify(document));

    const generated = run([
      path.join(heyApi, "bin", "run.js"),
      "--input",
      input,
      "--output",
      sdk,
      "--silent",
    ]);
    expect(generated.status, generated.output).toBe(0);

    const operations = Object.values(document.paths).flatMap((item) =>
      Object.entries(item).filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method)),
    );
    const functions =
      readFileSync(path.join(sdk, "sdk.gen.ts"), "utf8").match(/^export const \w+ = /gm) ?? [];
    expect(functions).toHaveLength(operations.length);
  });

  it("compiles with the flows under strict tsc (bundler resolution)", () => {
    const compiled = run([path.join(typescript, "bin", "tsc"), "--project", "tsconfig.json"]);
    expect(compiled.output).toBe("");
    expect(compiled.status).toBe(0);
  });

  it("runs one flow per area against the listening server", async () => {
    ({ flows } = (await import(pathToFileURL(path.join(folder, "flows.ts")).href)) as {
      flows: Record<string, Flow>;
    });
    expect(Object.keys(flows)).toEqual([
      "identity",
      "catalog and listings",
      "orders and payments",
      "notifications",
      "chat",
      "media upload",
      "community",
      "lifestyle",
      "administration",
    ]);
    const failed: string[] = [];
    for (const [area, flow] of Object.entries(flows)) {
      await flow(baseUrl, hooks).catch((error: unknown) => {
        failed.push(`${area}: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
    expect(failed).toEqual([]);
  });
});
