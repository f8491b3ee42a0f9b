import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The rule of docs/architecture.md ("Data access"): a repository file uses one mechanism, the
 * Prisma client or raw SQL through the SqlExecutor, never both. Row types taken from the generated
 * client are types, not a mechanism. The composition (repositories/index.ts) wires both kinds.
 */
const repositories = fileURLToPath(new URL("../src/repositories", import.meta.url));

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return sourceFiles(full);
    }

    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });

const mechanisms = (text: string) => ({
  prisma: /\b(Extended)?PrismaClient\b/.test(text) || /\bprisma(\(\)|\.\$?\w+)/.test(text),
  sql: /\bSqlExecutor\b/.test(text) || /\bdb\.(query|exec)\(/.test(text) || /\bselectPage\b/.test(text),
});

describe("data access: one mechanism per repository file", () => {
  const files = sourceFiles(repositories)
    .filter((file) => path.relative(repositories, file) !== "index.ts")
    .map((file) => ({ file: path.relative(repositories, file), ...mechanisms(readFileSync(file, "utf8")) }));

  it("finds repositories of both kinds (the scan reads what it should)", () => {
    expect(files.filter((file) => file.prisma).length).toBeGreaterThan(0);
    expect(files.filter((file) => file.sql).length).toBeGreaterThan(0);
  });

  it("has no repository file that uses both the Prisma client and raw SQL", () => {
    expect(files.filter((file) => file.prisma && file.sql).map((file) => file.file)).toEqual([]);
  });
});

describe("data access: no batched Prisma reads in repositories", () => {
  // Prisma batches the findUnique calls made in one tick into one query, run in the async context
  // of the first caller: a unit of work's read could then run outside its transaction (or another
  // unit's read inside it). findFirst is never batched (unit-of-work.int.test.ts shows the hazard).
  it("has no findUnique or findUniqueOrThrow in a repository", () => {
    const batched = sourceFiles(repositories).filter((file) =>
      /\.findUnique(OrThrow)?\(/.test(readFileSync(file, "utf8")),
    );
    expect(batched.map((file) => path.relative(repositories, file))).toEqual([]);
  });
});
