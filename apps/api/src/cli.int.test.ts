import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "@agora/db/client";
import { createEmptyPostgresDatabase, onPostgres } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The built entry points, as `pnpm agora` and `pnpm start` run them (turbo builds before tests).
const dist = fileURLToPath(new URL("../dist", import.meta.url));

const run = (entry: string, args: string[], env: Record<string, string>) => {
  const result = spawnSync(process.execPath, [path.join(dist, entry), ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent", ...env },
    timeout: 60_000,
  });

  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};

describe("command line (pnpm agora)", () => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    if (!existsSync(path.join(dist, "cli.js"))) {
      throw new Error("apps/api/dist is missing: run `pnpm build` (turbo runs it before `pnpm test`)");
    }
    const dataDir = mkdtempSync(path.join(tmpdir(), "agora-cli-"));
    if (onPostgres) {
      const target = await createEmptyPostgresDatabase();
      env = { DATABASE_URL: target.url, DATA_DIR: dataDir };
      cleanup = async () => {
        await target.drop();
        rmSync(dataDir, { recursive: true, force: true });
      };
    } else {
      env = { DATA_DIR: dataDir };
      cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
    }
  });
  afterAll(async () => {
    await cleanup?.();
  });

  it("migrate applies the migrations, then reports them up to date", () => {
    const first = run("cli.js", ["migrate"], env);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^migrations: applied \d{14}_foundation/);
    const second = run("cli.js", ["migrate"], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^migrations: up to date \(\d+ applied\)/);
  });

  it("seed loads the catalog once and is idempotent", () => {
    const first = run("cli.js", ["seed"], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^catalog: [1-9]\d* services and [1-9]\d* categories added/);
    const second = run("cli.js", ["seed"], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe("catalog: 0 services and 0 categories added\n");
  });

  it("user create makes an active, verified user with the role and prints its id", async () => {
    const result = run(
      "cli.js",
      [
        "user",
        "create",
        "--email",
        "Ops@Example.com",
        "--password",
        "operator password",
        "--username",
        "ops_admin",
        "--role",
        "admin",
      ],
      env,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    const database = await openDatabase({ url: env.DATABASE_URL, dataDir: `${env.DATA_DIR}/pglite` });
    try {
      const { rows } = await database.sql.query(
        "SELECT email, role, status, email_verified_at IS NOT NULL AS verified FROM users WHERE id = $1",
        [result.stdout.trim()],
      );
      expect(rows[0]).toEqual({ email: "ops@example.com", role: "admin", status: "active", verified: true });
    } finally {
      await database.close();
    }
    const again = run(
      "cli.js",
      [
        "user",
        "create",
        "--email",
        "ops@example.com",
        "--password",
        "operator password",
        "--username",
        "other",
      ],
      env,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toBe("agora user create: email is already registered\n");
  });

  it("content publish publishes a curated content item and prints its id; bad input is one line, exit 1", async () => {
    const result = run(
      "cli.js",
      ["content", "publish", "--title", "  Spring menu ", "--body", "Fresh greens"],
      env,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    const database = await openDatabase({ url: env.DATABASE_URL, dataDir: `${env.DATA_DIR}/pglite` });
    try {
      const { rows } = await database.sql.query(
        "SELECT title, body, published_at IS NOT NULL AS published FROM curated_content WHERE id = $1",
        [result.stdout.trim()],
      );
      expect(rows[0]).toEqual({ title: "Spring menu", body: "Fresh greens", published: true });
    } finally {
      await database.close();
    }
    for (const [args, expected] of [
      [["content", "publish", "--body", "B"], "agora content publish: --title: is required\n"],
      [
        ["content", "publish", "--title", "T", "--body", "  "],
        "agora content publish: --body: is required\n",
      ],
      [["content", "publish", "--title", "x".repeat(201), "--body", "B"], undefined],
      [["content", "publish", "--title", "T", "--body", "B", "--extra"], undefined],
    ] as const) {
      const refused = run("cli.js", [...args], env);
      expect(refused.code, args.join(" ")).toBe(1);
      expect(refused.stderr.split("\n").filter(Boolean)).toHaveLength(1);
      if (expected) {
        expect(refused.stderr).toBe(expected);
      }
    }
  });

  it("user create refuses bad input with one line", () => {
    const badRole = run(
      "cli.js",
      [
        "user",
        "create",
        "--email",
        "a@example.com",
        "--password",
        "12345678",
        "--username",
        "abc",
        "--role",
        "owner",
      ],
      env,
    );
    expect(badRole.code).toBe(1);
    expect(badRole.stderr).toBe(
      "agora user create: --role: must be one of member, provider, accountant, admin\n",
    );
    const shortPassword = run(
      "cli.js",
      ["user", "create", "--email", "a@example.com", "--password", "123", "--username", "abc"],
      env,
    );
    expect(shortPassword.code).toBe(1);
    expect(shortPassword.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect(shortPassword.stderr).toContain("--password");
  });

  it("outbox retry re-drives dead-lettered events, one by --id or all, and prints how many", async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const database = await openDatabase({ url: env.DATABASE_URL, dataDir: `${env.DATA_DIR}/pglite` });
    try {
      for (const [index, id] of ids.entries()) {
        await database.sql.query(
          `INSERT INTO outbox_events (id, kind, aggregate_type, aggregate_id, payload, attempts, available_at,
                                      dead_at, last_error, created_at)
           VALUES ($1, 'test.failed', 'test', $2, '{}', 10, now(), CASE WHEN $3 THEN now() END, 'Error: down', now())`,
          [id, String(index), index < 2],
        );
      }
    } finally {
      await database.close();
    }

    const one = run("cli.js", ["outbox", "retry", "--id", ids[0] ?? ""], env);
    expect(one.stderr).toBe("");
    expect(one.code).toBe(0);
    expect(one.stdout).toBe("outbox: 1 dead-lettered event re-driven\n");
    const rest = run("cli.js", ["outbox", "retry"], env);
    expect(rest.code).toBe(0);
    expect(rest.stdout).toBe("outbox: 1 dead-lettered event re-driven\n");
    const none = run("cli.js", ["outbox", "retry"], env);
    expect(none.stdout).toBe("outbox: 0 dead-lettered events re-driven\n");

    const check = await openDatabase({ url: env.DATABASE_URL, dataDir: `${env.DATA_DIR}/pglite` });
    try {
      const { rows } = await check.sql.query<{ id: string; attempts: number; dead: boolean }>(
        "SELECT id, attempts, dead_at IS NOT NULL AS dead FROM outbox_events ORDER BY aggregate_id",
      );
      // The two dead ones are pending again with fresh attempts; the live one was left alone.
      expect(rows).toEqual([
        { id: ids[0], attempts: 0, dead: false },
        { id: ids[1], attempts: 0, dead: false },
        { id: ids[2], attempts: 10, dead: false },
      ]);
    } finally {
      await check.close();
    }

    const bad = run("cli.js", ["outbox", "retry", "--id", "nope"], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe("agora outbox retry: --id: must be an outbox event id (UUID)\n");
  });

  it("exits 2 with usage on an unknown verb", () => {
    const result = run("cli.js", ["frobnicate"], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown verb "frobnicate"');
  });

  it("refuses to start in production without its dependencies, one line per missing item", () => {
    const result = run("main.js", [], { APP_ENV: "production", DATA_DIR: env.DATA_DIR ?? "" });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines[0]).toBe("agora: invalid configuration");
    const problems = lines.slice(1).map((line) => line.trim().split(":")[0]);
    expect(problems).toEqual([
      "DATABASE_URL",
      "TOKEN_SECRET",
      "mail",
      "MAIL_FROM",
      "S3",
      "LISTING_PLAN_PRICE_AMOUNT, LISTING_PLAN_CURRENCY, LISTING_PLAN_DURATION_DAYS",
    ]);
  });
});
