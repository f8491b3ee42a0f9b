// The migration lint (squawk, run by .ci/run) passes on the repository's migrations and fails on a
// migration that would rewrite or lock a busy table.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { NO_TRANSACTION_MARKER } from "../src/migrator";

const here = path.dirname(fileURLToPath(import.meta.url));
const script = path.join(here, "../scripts/lint-migrations.mjs");
const migrations = path.join(here, "../prisma/migrations");
const scratch = mkdtempSync(path.join(tmpdir(), "agora-squawk-"));

const lint = (dir?: string) =>
  spawnSync(process.execPath, [script, ...(dir ? [dir] : [])], { encoding: "utf8" });

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("squawk over the migrations", () => {
  it("passes on every migration of the repository (applied ones excused by name and rule)", () => {
    const result = lint();
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/squawk: \d+ migrations, 0 findings/);
    expect(result.status).toBe(0);
  });

  it("fails on a new migration that locks or rewrites a table, naming each rule", () => {
    const dir = path.join(scratch, "bad");
    cpSync(migrations, dir, { recursive: true });
    mkdirSync(path.join(dir, "20990101000000_unsafe"));
    writeFileSync(
      path.join(dir, "20990101000000_unsafe", "migration.sql"),
      [
        'CREATE INDEX "orders_notes_idx" ON "orders" ("notes");',
        'ALTER TABLE "orders" ALTER COLUMN "quantity" TYPE BIGINT;',
        'ALTER TABLE "orders" ADD COLUMN "channel" TEXT NOT NULL;',
        'ALTER TABLE "orders" ADD CONSTRAINT "orders_quantity_small" CHECK ("quantity" < 1000);',
        'ALTER TABLE "orders" DROP COLUMN "notes";',
        "",
      ].join("\n"),
    );
    const result = lint(dir);
    expect(result.status).toBe(1);
    for (const rule of [
      "require-concurrent-index-creation",
      "changing-column-type",
      "adding-required-field",
      "constraint-missing-not-valid",
      "ban-drop-column",
    ]) {
      expect(result.stderr).toContain(`20990101000000_unsafe/migration.sql`);
      expect(result.stderr).toContain(`: ${rule}: `);
    }
  });

  it("lints a migration marked to run outside a transaction as such: CONCURRENTLY accepted, every statement re-runnable", () => {
    const dir = path.join(scratch, "no-transaction");
    cpSync(migrations, dir, { recursive: true });
    const write = (name: string, lines: string[]) => {
      mkdirSync(path.join(dir, name));
      writeFileSync(path.join(dir, name, "migration.sql"), [...lines, ""].join("\n"));
    };
    write("20990101000000_concurrent", [
      NO_TRANSACTION_MARKER,
      'DROP INDEX CONCURRENTLY IF EXISTS "orders_notes_idx";',
      'CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_notes_idx" ON "orders" ("notes");',
    ]);
    const safe = lint(dir);
    expect({ status: safe.status, stderr: safe.stderr }).toEqual({ status: 0, stderr: "" });

    // A table created outside a transaction stays when a later statement fails: the rerun
    // would fail on it. Inside one (the same statement without the marker) it is rolled back.
    write("20990102000000_unsafe", [
      NO_TRANSACTION_MARKER,
      'CREATE TABLE "nt_table" ("id" BIGINT);',
      'CREATE INDEX "orders_channel_idx" ON "orders" ("channel");',
    ]);
    write("20990103000000_unmarked", ['CREATE TABLE "nt_other_table" ("id" BIGINT);']);
    const result = lint(dir);
    expect(result.status).toBe(1);
    const found = result.stderr
      .split("\n")
      .filter((line) => line !== "")
      .map(
        (line) => /(\d+_\w+)\/migration\.sql:\d+:\d+: ([\w-]+): /.exec(line)?.slice(1, 3).join(" ") ?? line,
      )
      .sort();
    expect(found).toEqual([
      // The table, then the index (no IF NOT EXISTS), which also locks out writers.
      "20990102000000_unsafe prefer-robust-stmts",
      "20990102000000_unsafe prefer-robust-stmts",
      "20990102000000_unsafe require-concurrent-index-creation",
    ]);
  });
});
