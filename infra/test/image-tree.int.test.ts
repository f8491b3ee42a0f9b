// The images' recipe, proven without a Docker engine: infra/build-image-tree.sh (what the Dockerfile
// RUNs) builds each tree, and the tree runs with the Dockerfile's CMD, ENV and HEALTHCHECK — as
// nobody on a read-only root filesystem where this machine allows it — against PostgreSQL.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eventually } from "@agora/testing/eventually";
import { freePort } from "@agora/testing/processes";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readDockerfile, repoRoot } from "./support/dockerfile";
import { detectIsolation, type Isolation, runIn, startIn } from "./support/processes";

/** The image trees start cold (bundles load, migrations run): asked every 100 ms for up to 20 s. */
const waitUp = <T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000) =>
  eventually(check, { timeoutMs, intervalMs: 100 });

const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;
const buildScript = path.join(repoRoot, "infra", "build-image-tree.sh");
const MiB = 1024 * 1024;
/** A budget, not a target: a tree past it has picked up something it does not run. */
const TREE_BUDGET_BYTES = 200 * MiB;

/** The environment the build script gets: this one without what the surrounding pnpm/turbo set. */
const buildEnvironment = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|pnpm_|turbo_)/i.test(name)));

const buildTree = (out: string, app: "api" | "worker"): string => {
  const result = spawnSync("bash", [buildScript, out, app], {
    encoding: "utf8",
    env: buildEnvironment(),
    timeout: 280_000,
  });
  if (result.status !== 0) {
    throw new Error(
      `build-image-tree.sh ${app} failed (${result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  }

  return result.stdout;
};

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);

    return entry.isDirectory() ? [full, ...walk(full)] : [full];
  });

/** Every path with its size and modification time: equal snapshots mean nothing was written. */
const snapshot = (dir: string): string[] =>
  walk(dir).map((file) => {
    const stat = statSync(file, { throwIfNoEntry: false });

    return `${path.relative(dir, file)} ${stat?.size ?? "dangling"} ${stat?.mtimeMs ?? ""}`;
  });

const treeBytes = (dir: string): number =>
  walk(dir).reduce((sum, file) => {
    const stat = statSync(file, { throwIfNoEntry: false });

    return sum + (stat?.isFile() ? stat.size : 0);
  }, 0);

const withAdmin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

describe.skipIf(!testDatabaseUrl)(
  "image trees from infra/build-image-tree.sh (PostgreSQL only: production refuses the embedded database; skipped without TEST_DATABASE_URL)",
  () => {
    const dockerfile = readDockerfile();
    const api = dockerfile.target("api");
    const worker = dockerfile.target("worker");
    const composeFile = parse(readFileSync(path.join(repoRoot, "infra", "docker-compose.yml"), "utf8")) as {
      services: Record<string, { command?: string[] }>;
    };
    const migrateCommand = composeFile.services.migrate?.command ?? [];

    let workDir: string;
    let apiTree: string;
    let workerTree: string;
    let databaseName: string;
    let databaseUrl: string;
    let isolation: Isolation;
    let apiSnapshot: string[];
    let workerSnapshot: string[];

    /** What production demands (packages/process/src/config.ts), with dummy peers; the image's ENV first. */
    const environment = (imageEnv: Record<string, string>, port: number): Record<string, string> => ({
      ...imageEnv,
      // `docker run -p` would publish the image's port; here the process listens on loopback only.
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      TOKEN_SECRET: randomBytes(48).toString("base64url"),
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: "2525",
      SMTP_USER: "agora",
      SMTP_PASSWORD: "not-a-real-password",
      MAIL_FROM: "agora@example.test",
      S3_ENDPOINT: "https://s3.example.invalid",
      S3_BUCKET: "agora-media",
      S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
      S3_SECRET_ACCESS_KEY: "not-a-real-secret",
      LISTING_PLAN_PRICE_AMOUNT: "990",
      LISTING_PLAN_CURRENCY: "USD",
      LISTING_PLAN_DURATION_DAYS: "30",
      READINESS_CHECKS: "enabled",
      WORKER: "off",
      LOG_LEVEL: "info",
    });

    beforeAll(async () => {
      isolation = detectIsolation();
      console.info(`image trees run ${isolation.describe}`);
      workDir = mkdtempSync(path.join(tmpdir(), "agora-image-trees-"));
      // nobody must be able to read the trees (mkdtemp makes the folder private).
      chmodSync(workDir, 0o755);
      apiTree = path.join(workDir, "api");
      workerTree = path.join(workDir, "worker");
      buildTree(apiTree, "api");
      buildTree(workerTree, "worker");
      apiSnapshot = snapshot(apiTree);
      workerSnapshot = snapshot(workerTree);

      databaseName = `agora_image_${randomBytes(5).toString("hex")}`;
      await withAdmin((client) => client.query(`CREATE DATABASE "${databaseName}"`));
      const url = new URL(testDatabaseUrl ?? "");
      url.pathname = `/${databaseName}`;
      databaseUrl = url.toString();
    });

    afterAll(async () => {
      if (databaseName) {
        await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`));
      }
      if (workDir) {
        rmSync(workDir, { recursive: true, force: true });
      }
    });

    it("holds only dist, package.json and production node_modules: no build tools, no workspace sources", () => {
      const sizes: string[] = [];
      for (const [name, tree] of [
        ["api", apiTree],
        ["worker", workerTree],
      ] as const) {
        expect(readdirSync(tree).sort()).toEqual(["dist", "node_modules", "package.json"]);
        expect(existsSync(path.join(tree, "dist", "main.js"))).toBe(true);
        expect(existsSync(path.join(tree, "node_modules", "@agora"))).toBe(false);
        const store = readdirSync(path.join(tree, "node_modules", ".pnpm"));
        const devTools = store.filter((entry) =>
          /^(typescript|prisma|tsup|vitest|esbuild|turbo|@biomejs\+|@prisma\+studio-core|smtp-server)@/.test(
            entry,
          ),
        );
        expect(devTools).toEqual([]);
        // PostgreSQL's parser splits migrations at build time only (packages/db/scripts/bundle-migrations.mjs):
        // the api tree migrates below without it.
        expect(store.filter((entry) => entry.startsWith("libpg-query@"))).toEqual([]);
        const prismaRuntime = readdirSync(path.join(tree, "node_modules", "@prisma", "client", "runtime"));
        const compilers = prismaRuntime.filter((file) => file.startsWith("query_compiler_"));
        expect(compilers.length).toBeGreaterThan(0);
        expect(compilers.filter((file) => !file.includes(".postgresql."))).toEqual([]);
        const bytes = treeBytes(tree);
        sizes.push(`${name} ${(bytes / MiB).toFixed(0)} MiB`);
        expect(bytes).toBeLessThan(TREE_BUDGET_BYTES);
      }
      expect(existsSync(path.join(apiTree, "dist", "cli.js"))).toBe(true);
      console.info(`image trees: ${sizes.join(", ")}`);
    });

    it("refuses to start without TOKEN_SECRET: the image's APP_ENV=production applies", async () => {
      const env = environment(api.env, await freePort());
      delete env.TOKEN_SECRET;
      const result = await runIn(isolation, apiTree, api.cmd ?? [], env);
      expect(result.code).toBe(1);
      expect(result.output).toContain("TOKEN_SECRET: required in staging and production");
    });

    it("migrates with the compose migrate service's command, then finds the schema up to date", async () => {
      expect(migrateCommand).toEqual(["node", "dist/cli.js", "migrate"]);
      const env = environment(api.env, await freePort());
      const first = await runIn(isolation, apiTree, migrateCommand, env);
      expect(first.output).toMatch(/^migrations: applied \d{14}_foundation/);
      expect(first.code).toBe(0);
      const second = await runIn(isolation, apiTree, migrateCommand, env);
      expect(second.output).toMatch(/^migrations: up to date/);
      expect(second.code).toBe(0);
    });

    it("api: the CMD serves /ready 200 on PostgreSQL, the HEALTHCHECK passes, SIGTERM exits 0", async () => {
      const port = await freePort();
      const env = environment(api.env, port);
      const server = startIn(isolation, apiTree, api.cmd ?? [], env);
      try {
        // The server listens before it has reached the database: /ready is 503 until it has.
        let ready: { status: number; body: { data: unknown } } | undefined;
        await waitUp(async () => {
          if (server.child.exitCode !== null) {
            throw new Error(`api exited ${server.child.exitCode}:\n${server.output()}`);
          }
          try {
            const response = await fetch(`http://127.0.0.1:${port}/ready`);
            ready = { status: response.status, body: (await response.json()) as { data: unknown } };
          } catch {
            return undefined;
          }

          return ready.status === 200 ? true : undefined;
        }).catch(() => {});
        expect(ready).toEqual({
          status: 200,
          body: expect.objectContaining({
            data: expect.objectContaining({
              status: "ready",
              checks: expect.objectContaining({ database: "ok", schema: "ok" }),
            }),
          }),
        });
        // pino writes asynchronously to a pipe: the start line may trail the first response.
        await waitUp(() => (/"msg":"agora api listening"/.test(server.output()) ? true : undefined));
        expect(server.output()).toMatch(/"env":"production","database":"postgres","worker":"off"/);

        const healthcheck = api.healthcheck?.kind === "cmd" ? (api.healthcheck.argv ?? []) : [];
        expect(healthcheck[0]).toBe("node");
        expect((await runIn(isolation, apiTree, healthcheck, env)).code).toBe(0);

        server.child.kill("SIGTERM");
        // The image's production defaults pause 5 s (SHUTDOWN_DELAY_MS) serving, with /ready 503.
        const draining = await waitUp(async () => {
          const response = await fetch(`http://127.0.0.1:${port}/ready`);
          await response.arrayBuffer();

          return response.status === 503 ? response.status : undefined;
        }, 4_000);
        expect(draining).toBe(503);
        expect(await server.exited).toBe(0);
        expect(server.output()).toContain('"msg":"stopped"');
        expect(server.output()).toMatch(/"delay_ms":5000,"msg":"shutting down: \/ready answers 503"/);
        // The same check fails once nothing answers: it can tell.
        expect((await runIn(isolation, apiTree, healthcheck, env)).code).toBe(1);
      } finally {
        server.child.kill("SIGKILL");
      }
    });

    it("worker: the CMD starts against PostgreSQL, the HEALTHCHECK passes, SIGTERM exits 0 after the batch in flight", async () => {
      const env = {
        ...environment(worker.env, await freePort()),
        WORKER_HEALTH_PORT: String(await freePort()),
      };
      const started = startIn(isolation, workerTree, worker.cmd ?? [], env);
      try {
        await waitUp(() => {
          if (started.child.exitCode !== null) {
            throw new Error(`worker exited ${started.child.exitCode}:\n${started.output()}`);
          }

          return started.output().includes("agora worker started") ? true : undefined;
        });
        const healthcheck = worker.healthcheck?.kind === "cmd" ? (worker.healthcheck.argv ?? []) : [];
        expect(healthcheck[0]).toBe("node");
        expect((await runIn(isolation, workerTree, healthcheck, env)).code).toBe(0);
        started.child.kill("SIGTERM");
        expect(await started.exited).toBe(0);
        expect(started.output()).toContain("agora worker stopped");
        // The same check fails once nothing answers: it can tell.
        expect((await runIn(isolation, workerTree, healthcheck, env)).code).toBe(1);
      } finally {
        started.child.kill("SIGKILL");
      }
    });

    it("wrote nothing into either tree", () => {
      expect(snapshot(apiTree)).toEqual(apiSnapshot);
      expect(snapshot(workerTree)).toEqual(workerSnapshot);
    });
  },
);
