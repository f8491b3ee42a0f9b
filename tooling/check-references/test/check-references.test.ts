import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { checkReferences } from "../src/check-references.ts";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
const mainTs = fileURLToPath(new URL("../src/main.ts", import.meta.url));

/** A small repository in a temporary git work tree: every reference in it resolves. */
const sound: Record<string, string> = {
  "package.json": "{}\n",
  ".gitignore": "dist/\ninfra/.env\nbench/results/\n",
  "README.md": [
    "# Example",
    "",
    "Read [the guide](docs/guide.md), its [start](docs/guide.md#getting-started), the [layout](#layout)",
    "and [the API folder](apps/api/). The server is `apps/api/src/app.ts`; `pnpm build` writes",
    "apps/api/dist/start.js. Copy infra/.env.example to infra/.env. Links out: [site](https://example.com/apps/x).",
    "The bench writes bench/results (an ignored folder that does not exist yet).",
    "",
    "## Layout",
    "",
    "```",
    "packages/db   its SQL (packages/db/src/sql.ts)",
    "```",
    "",
    "Relative to an overlay: ../../components/pgbouncer <!-- check-references: ignore -->",
    "",
  ].join("\n"),
  "docs/guide.md": "# Getting started\n\nBack to [the README](../README.md#example).\n",
  "apps/api/package.json": "{}\n",
  "bench/package.json": "{}\n",
  "apps/api/src/app.ts": [
    "// Queries live in packages/db/src/sql.ts; tests use test/harness.ts (this package's).",
    "/* See ../test/harness.ts, and https://example.com/packages/nope, @agora/db/nope, and/or $root/apps/nope. */",
    'export const where = "apps/api/src/not-a-comment.ts";',
    "// Globs name folders: apps/*/src, packages/db/prisma/<name>.prisma.",
    "",
  ].join("\n"),
  "apps/api/test/harness.ts": "export {};\n",
  "packages/db/package.json": "{}\n",
  "packages/db/src/sql.ts": "export {};\n",
  "packages/db/prisma/schema.prisma":
    "// Applied by src/sql.ts; checked by test/drift.test.ts.\nmodel A {\n  id String @id\n}\n",
  "packages/db/test/drift.test.ts": "export {};\n",
  "packages/db/CHANGELOG.md":
    "## 0.1.0\n\n- Moved packages/db/src/old-client.ts into packages/db/src/sql.ts.\n",
  "infra/.env.example": "# Copy to infra/.env (see infra/docker-compose.yml).\nA=1\n",
  "infra/docker-compose.yml": "# Settings: infra/.env.example\nservices: {}\n",
};

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) {
    rmSync(root, { recursive: true, force: true });
  }
});

const repository = (files: Record<string, string>) => {
  const root = mkdtempSync(path.join(tmpdir(), "check-references-"));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  for (const args of [
    ["init", "--quiet"],
    ["add", "--all"],
  ]) {
    const result = spawnSync("git", args, { cwd: root, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
  }

  return root;
};

const findings = (files: Record<string, string>) =>
  checkReferences(repository(files)).map(({ file, line, reference }) => `${file}:${line} ${reference}`);

describe("the dangling-reference check", () => {
  it("passes on a repository whose links and paths all resolve (URLs, packages, globs, ignored files, markers and history aside)", () => {
    expect(findings(sound)).toEqual([]);
  });

  it("passes on this repository", () => {
    expect(checkReferences(repoRoot)).toEqual([]);
  });

  it("fails on a planted broken link: a missing file, a missing heading, a link out of the repository", () => {
    const planted = {
      ...sound,
      "docs/guide.md": [
        "# Getting started",
        "",
        "See [the runbook](operating.md), [limits](../README.md#limits) and [notes](../../elsewhere/notes.md).",
        "",
      ].join("\n"),
    };

    expect(findings(planted)).toEqual([
      "docs/guide.md:3 operating.md",
      "docs/guide.md:3 ../README.md#limits",
      "docs/guide.md:3 ../../elsewhere/notes.md",
    ]);
  });

  it("fails on a planted dangling path in a comment and in a document", () => {
    const planted = {
      ...sound,
      "apps/api/src/app.ts": `${sound["apps/api/src/app.ts"]}// The pool is made in packages/db/src/client.ts.\n`,
      "packages/db/prisma/schema.prisma":
        "// Kept in step by test/drift.int.test.ts.\nmodel A {\n  id String @id\n}\n",
      "infra/docker-compose.yml": "# Settings: infra/settings.env.example\nservices: {}\n",
      "README.md": `${sound["README.md"]}\nThe contract tests are in \`apps/api/test/spec-routes.ts\`.\n`,
    };

    expect(findings(planted)).toEqual([
      "README.md:16 apps/api/test/spec-routes.ts",
      "apps/api/src/app.ts:5 packages/db/src/client.ts",
      "infra/docker-compose.yml:1 infra/settings.env.example",
      "packages/db/prisma/schema.prisma:1 test/drift.int.test.ts",
    ]);
  });

  it("reads tracked files only; a file not yet added counts as existing (a build's temporary files are not read)", () => {
    const root = repository(sound);
    writeFileSync(path.join(root, "docs/draft.md"), "# Draft\n\n[Missing](missing.md)\n");
    writeFileSync(path.join(root, "README.md"), `${sound["README.md"]}\nSee [the draft](docs/draft.md).\n`);

    expect(checkReferences(root)).toEqual([]);
  });

  it("the command prints each finding and exits 1, and exits 0 on a sound repository", () => {
    const planted = repository({ ...sound, "docs/guide.md": "# Guide\n\n[Missing](missing.md)\n" });
    const failed = spawnSync(process.execPath, [mainTs, planted], { encoding: "utf8" });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain("docs/guide.md:3: missing.md: no such file or folder: docs/missing.md");

    const passed = spawnSync(process.execPath, [mainTs, repository(sound)], { encoding: "utf8" });
    expect(passed.stderr).toBe("");
    expect(passed.status).toBe(0);
  });
});
