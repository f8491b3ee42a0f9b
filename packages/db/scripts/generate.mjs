// The db package's build: `prisma generate` (offline) and the migrations bundled as a module.
//
// Generation needs no query or schema engine, but the CLI still looks for a schema engine binary
// and would try to download one; any existing file satisfies it.
//
// The migrations are also written into src/generated/migrations.ts, so an application bundle
// carries them (no files to copy next to it, in a build or in watch mode), with the statements of
// each no-transaction migration split here (scripts/bundle-migrations.mjs says why).
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleMigrations, bundleModule } from "./bundle-migrations.mjs";

const require = createRequire(import.meta.url);
const prismaCli = require.resolve("prisma/build/index.js");

const result = spawnSync(process.execPath, [prismaCli, "generate"], {
  stdio: "inherit",
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  },
});
if (result.status !== 0) {
  process.exit(result.status ?? 1);
}

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// A migration that cannot be split fails the build, with the reason.
const migrations = await bundleMigrations(path.join(root, "prisma", "migrations")).catch((error) => {
  console.error(error.message);
  process.exit(1);
});
mkdirSync(path.join(root, "src", "generated"), { recursive: true });
writeFileSync(path.join(root, "src", "generated", "migrations.ts"), bundleModule(migrations));
const split = migrations.filter((migration) => migration.statements);
console.log(
  `Bundled ${migrations.length} migrations into src/generated/migrations.ts ` +
    `(${split.length} outside a transaction, split into ${split.reduce((n, m) => n + (m.statements?.length ?? 0), 0)} statements)`,
);
