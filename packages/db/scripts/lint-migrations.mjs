// squawk over every migration (`.ci/run`; `pnpm --filter @agora/db lint:migrations [dir]`), with
// the repository's .squawk.toml. Exits 1 on any finding that is not excused below.
//
// Applied migrations are never edited (the migrator refuses a changed checksum), so the ones that
// trip a rule are excused here by migration name and rule, each with its reason. A new migration
// gets no entry: write it the safe way instead (docs/operations.md, "Migrations that are safe
// under load").
//
// .squawk.toml assumes each file runs inside a transaction, as the migrator runs it, except a
// migration whose first line is the migrator's no-transaction marker (NO_TRANSACTION_MARKER in
// src/migrator.ts): those are linted with --no-assume-in-transaction, so squawk also asks that
// every statement can run again after a failed run (prefer-robust-stmts: IF NOT EXISTS, IF
// EXISTS), which it does not ask of a migration a failure rolls back. (squawk says nothing of a
// CONCURRENTLY in an unmarked migration; the migrator fails on it at once, "cannot run inside a
// transaction block", in every test that migrates a database.)
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const dir = path.resolve(process.argv[2] ?? path.join(here, "../prisma/migrations"));

/** Excused findings of applied migrations: migration name → rule → why it was acceptable then. */
const applied = {
  "20261122040000_orders": {
    "adding-foreign-key-constraint": "payments → orders on tables created empty in the same release",
    "constraint-missing-not-valid": "the same foreign key, on empty tables",
  },
  "20261123000000_idempotent_outcomes": {
    "ban-drop-column":
      "idempotency keys are 24-hour records, emptied by the same migration; no reader of the old columns was deployed beside it",
    "renaming-column": "the same table, emptied first, before any release read it",
    "adding-required-field": "the same table, emptied first",
  },
  "20261127000000_administration": {
    "require-concurrent-index-creation":
      "indexes on tables still small before launch; the migrator runs in a transaction, where CONCURRENTLY cannot",
  },
  "20261127010000_moderation": {
    "require-concurrent-index-creation": "the same, before launch",
  },
  "20261128000000_abuse_resistance": {
    "require-concurrent-index-creation": "the same, before launch",
    "require-concurrent-index-deletion": "replaced indexes, before launch",
    "adding-foreign-key-constraint": "a new table's key, before launch",
    "constraint-missing-not-valid": "the same key",
  },
  "20261129000000_outbox_figures": {
    "require-concurrent-index-creation": "partial indexes on the outbox, before launch",
  },
  "20261130000000_listing_browse": {
    "require-concurrent-index-creation": "the same, before launch",
    "require-concurrent-index-deletion": "a replaced index, before launch",
  },
  "20261201000000_order_item_search": {
    "require-concurrent-index-creation": "the same, before launch",
    "require-concurrent-index-deletion": "a replaced index, before launch",
  },
};

const require = createRequire(import.meta.url);
const squawk = path.join(path.dirname(require.resolve("squawk-cli/package.json")), "js/bin/squawk");
const files = readdirSync(dir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => path.join(dir, entry.name, "migration.sql"))
  .sort();
if (files.length === 0) {
  console.error(`lint-migrations: no migrations under ${dir}`);
  process.exit(1);
}

/** The migrator's marker (src/migrator.ts); the lint test checks that the two agree. */
const NO_TRANSACTION_MARKER = "-- agora:no-transaction";
const runsInTransaction = (file) =>
  readFileSync(file, "utf8").split("\n", 1)[0]?.trimEnd() !== NO_TRANSACTION_MARKER;

/** squawk's findings on `paths` (none when there are no paths), with `flags` after the config. */
const lint = (paths, flags) => {
  if (paths.length === 0) {
    return [];
  }
  const run = spawnSync(
    process.execPath,
    [squawk, "--config", path.join(root, ".squawk.toml"), ...flags, "--reporter", "json", ...paths],
    { encoding: "utf8", cwd: root },
  );
  try {
    return JSON.parse(run.stdout || "[]");
  } catch {
    console.error(`lint-migrations: squawk failed (exit ${run.status}):\n${run.stderr}${run.stdout}`);
    process.exit(1);
  }
};
const findings = [
  ...lint(files.filter(runsInTransaction), []),
  ...lint(
    files.filter((file) => !runsInTransaction(file)),
    ["--no-assume-in-transaction"],
  ),
];

const migrationOf = (file) => path.basename(path.dirname(file));
let excused = 0;
const problems = [];
for (const finding of findings) {
  if (applied[migrationOf(finding.file)]?.[finding.rule_name]) {
    excused += 1;
  } else {
    problems.push(
      `${finding.file}:${finding.line}:${finding.column}: ${finding.rule_name}: ${finding.message}`,
    );
  }
}
for (const line of problems) {
  console.error(line);
}
console.log(
  `squawk: ${files.length} migrations, ${problems.length} finding${problems.length === 1 ? "" : "s"}, ${excused} excused (applied migrations, see scripts/lint-migrations.mjs)`,
);
process.exit(problems.length > 0 ? 1 : 0);
