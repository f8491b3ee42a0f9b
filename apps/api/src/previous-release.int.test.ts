// The previous release's API keeps working while this tree's migrations apply (docs/operations.md,
// "Migrations that are safe under load"; expand/contract): the previous release (test/previous-release.ts: the newest commit whose
// migrations are a strict prefix of this tree's) is built from git, migrated to its own level and
// started (`node dist/main.js`, its embedded worker on); smoke requests run against it from
// several loops while this tree's `agora migrate` applies the new migrations, and after. Every
// answer is the expected one, /ready stays 200, and this tree's API then serves the same database.

import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createEmptyPostgresDatabase, onPostgres } from "@agora/db/test/databases";
import { eventually, sleep } from "@agora/testing/eventually";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildRelease,
  findPreviousRelease,
  type PreviousRelease,
  previousReleaseUnavailable,
} from "../test/previous-release";
import { type ApiProcess, createMember, startProcess, TEST_TOKEN_SECRET } from "../test/processes";

const currentDist = fileURLToPath(new URL("../dist", import.meta.url));
const unavailable = onPostgres
  ? previousReleaseUnavailable()
  : "PostgreSQL only: two API processes and a migrator share the database";
/** Building the previous release: an install from pnpm's store and two builds. */
const BUILD_TIMEOUT_MS = 600_000;
const TEST_TIMEOUT_MS = 240_000;
const LOOPS = 4;
/** How long this tree's API may take to say it is ready on a loaded machine. */
const READY_TIMEOUT_MS = 60_000;

/** Runs `node <entry> <args>` without blocking this process (the smoke loops run meanwhile). */
const runNode = (entry: string, args: string[], env: Record<string, string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [entry, ...args], {
      env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });

type Member = { id: string; token: string };

/** One round of smoke requests: each answer's status, or the failure, named by its request. */
const smokeRound = async (origin: string, member: Member, conversationId: string, tag: string) => {
  const auth = { authorization: `Bearer ${member.token}` };
  const checks: Array<[string, Promise<Response>, number]> = [
    ["GET /health", fetch(`${origin}/health`), 200],
    ["GET /ready", fetch(`${origin}/ready`), 200],
    ["GET /auth/me", fetch(`${origin}/api/v1/auth/me`, { headers: auth }), 200],
    ["GET /catalog/categories", fetch(`${origin}/api/v1/catalog/categories`), 200],
    ["GET /listings", fetch(`${origin}/api/v1/listings`), 200],
    ["GET /orders", fetch(`${origin}/api/v1/orders`, { headers: auth }), 200],
    [
      "POST /chat message",
      fetch(`${origin}/api/v1/chat/conversations/${conversationId}/messages`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ body: `smoke ${tag}` }),
      }),
      201,
    ],
    [
      "GET /chat messages",
      fetch(`${origin}/api/v1/chat/conversations/${conversationId}/messages`, { headers: auth }),
      200,
    ],
  ];
  const failures: string[] = [];
  for (const [name, answer, expected] of checks) {
    try {
      const res = await answer;
      const text = await res.text();
      if (res.status !== expected) {
        failures.push(`${name}: ${res.status} ${text.slice(0, 300)}`);
      }
    } catch (error) {
      failures.push(`${name}: ${(error as Error).message}`);
    }
  }

  return failures;
};

describe.skipIf(unavailable !== undefined)(
  `the previous release's API during this tree's migrations${unavailable ? ` (skipped: ${unavailable})` : ""}`,
  () => {
    let workDir: string;
    let release: PreviousRelease;
    let previousDist: string;
    let database: Awaited<ReturnType<typeof createEmptyPostgresDatabase>> | undefined;
    let client: pg.Client | undefined;
    const processes: ApiProcess[] = [];

    beforeAll(() => {
      workDir = mkdtempSync(path.join(tmpdir(), "agora-previous-"));
      release = findPreviousRelease();
      previousDist = buildRelease(release.commit, path.join(workDir, "tree"));
    }, BUILD_TIMEOUT_MS);
    afterAll(async () => {
      for (const api of processes) {
        api.child.kill("SIGKILL");
      }
      await Promise.all(processes.map((api) => api.exited));
      await client?.end();
      await database?.drop();
      rmSync(workDir, { recursive: true, force: true });
    });

    it(
      "keeps answering every smoke request while the new migrations apply, and after; this tree's API then serves the same database",
      async () => {
        database = await createEmptyPostgresDatabase();
        const env = {
          APP_ENV: "development",
          DATABASE_URL: database.url,
          DATA_DIR: path.join(workDir, "data"),
          TOKEN_SECRET: TEST_TOKEN_SECRET,
          HOST: "127.0.0.1",
          PORT: "0",
          WORKER: "embedded",
          READINESS_CHECKS: "enabled",
          LOG_LEVEL: "info",
        };
        for (const verb of ["migrate", "seed"]) {
          const done = await runNode(path.join(previousDist, "cli.js"), [verb], env);
          expect(done.stderr, `previous release's ${verb}`).toBe("");
          expect(done.code).toBe(0);
        }
        client = new pg.Client({ connectionString: database.url });
        await client.connect();
        const ada = await createMember(client);
        const bob = await createMember(client);
        const conversationId = randomUUID();
        const [low, high] = [ada.id, bob.id].sort();
        await client.query(
          "INSERT INTO conversations (id, user_a_id, user_b_id, created_at, updated_at) VALUES ($1, $2, $3, now(), now())",
          [conversationId, low, high],
        );

        const previous = startProcess(env, path.join(previousDist, "main.js"));
        processes.push(previous);
        const origin = await previous.origin();
        expect(await smokeRound(origin, ada, conversationId, "before")).toEqual([]);

        // Smoke loops against the previous release, while this tree's migrate runs and after.
        const failures: string[] = [];
        let rounds = 0;
        let roundsDuringMigration = 0;
        let migrating = false;
        let stop = false;
        const loop = async (index: number) => {
          for (let n = 0; !stop; n += 1) {
            const during = migrating;
            const found = await smokeRound(
              origin,
              index % 2 === 0 ? ada : bob,
              conversationId,
              `${index}.${n}`,
            );
            failures.push(
              ...found.map((failure) => `${during || migrating ? "during" : "outside"} ${failure}`),
            );
            rounds += 1;
            if (during || migrating) {
              roundsDuringMigration += 1;
            }
          }
        };
        const loops = Promise.all(Array.from({ length: LOOPS }, (_, index) => loop(index)));
        await sleep(500);
        migrating = true;
        const migrated = await runNode(path.join(currentDist, "cli.js"), ["migrate"], env);
        migrating = false;
        const roundsAtEnd = rounds;
        while (rounds < roundsAtEnd + 2 * LOOPS) {
          await sleep(50);
        }
        stop = true;
        await loops;

        expect(migrated.stderr).toBe("");
        expect(migrated.code).toBe(0);
        expect(migrated.stdout.trim()).toBe(`migrations: applied ${release.newMigrations.join(", ")}`);
        expect(failures).toEqual([]);
        expect(roundsDuringMigration).toBeGreaterThan(0);
        const ready = await fetch(`${origin}/ready`);
        expect(ready.status, await ready.text()).toBe(200);
        expect(previous.lines().filter((line) => line.level === "error" || line.level === "fatal")).toEqual(
          [],
        );

        // This tree's API on the same database, beside the previous one.
        const current = startProcess(env, path.join(currentDist, "main.js"));
        processes.push(current);
        // As a rolling deploy does, traffic goes to it once it says it is ready (it listens first).
        const currentOrigin = await current.origin();
        await eventually(async () => (await fetch(`${currentOrigin}/ready`)).status === 200, {
          timeoutMs: READY_TIMEOUT_MS,
          intervalMs: 100,
        });
        expect(await smokeRound(currentOrigin, bob, conversationId, "current")).toEqual([]);
        expect(await smokeRound(origin, ada, conversationId, "previous, last")).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );
  },
);
