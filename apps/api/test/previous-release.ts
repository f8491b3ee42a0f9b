// The previous release of the API, built from git at test time (docs/operations.md, "Migrations
// that are safe under load"): the newest ancestor commit whose migrations are a strict prefix of
// this tree's (on disk) (each of its migrations byte-identical here, and this tree has more). That
// is the code a rolling deploy of this tree still runs beside the new schema. It is extracted with
// `git archive`, installed from pnpm's store (`--prefer-offline`: the registry only for what the
// store lacks) and built as the API builds: the db package's generate step and the API's tsup
// bundle, about half a minute.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const MIGRATIONS = "packages/db/prisma/migrations";

const root = fileURLToPath(new URL("../../..", import.meta.url));

const sh = (command: string, args: string[], options: { cwd?: string; input?: Buffer } = {}) => {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? root,
    input: options.input,
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, CI: "1" },
  });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} failed (${result.status}): ${String(result.stderr).slice(-2_000)}`,
    );
  }

  return result.stdout;
};
const git = (...args: string[]) => sh("git", args).toString("utf8").trim();

/** Why this tree cannot find its previous release (no git, a shallow clone), or undefined. */
export const previousReleaseUnavailable = (): string | undefined => {
  const probe = spawnSync("git", ["rev-parse", "--is-shallow-repository"], { cwd: root, encoding: "utf8" });
  if (probe.status !== 0) {
    return "not a git checkout (the previous release is built from git history)";
  }
  if (probe.stdout.trim() === "true") {
    return "a shallow clone (the previous release is built from git history: git fetch --unshallow)";
  }

  return undefined;
};

const migrationsAt = (commit: string): Map<string, string> => {
  const listing = git("ls-tree", "-r", commit, "--", MIGRATIONS);
  const files = new Map<string, string>();
  for (const line of listing.split("\n").filter(Boolean)) {
    const [meta, file] = line.split("\t");
    const name = file?.slice(MIGRATIONS.length + 1).split("/")[0];
    if (name && file?.endsWith("/migration.sql")) {
      files.set(name, meta?.split(" ")[2] ?? "");
    }
  }

  return files;
};

export type PreviousRelease = {
  commit: string;
  subject: string;
  /** The migrations this tree adds to the previous release's. */
  newMigrations: string[];
};

/** This tree's migrations as they are on disk (committed or not), by git blob id. */
const migrationsHere = (): Map<string, string> => {
  const names = readdirSync(path.join(root, MIGRATIONS), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const blobs = git("hash-object", ...names.map((name) => path.join(MIGRATIONS, name, "migration.sql")));

  return new Map(names.map((name, index) => [name, blobs.split("\n")[index] ?? ""]));
};

/** The newest ancestor whose migrations are a strict prefix of this tree's (identical files). */
export const findPreviousRelease = (): PreviousRelease => {
  const current = migrationsHere();
  for (const changed of git("log", "--format=%H", "HEAD", "--", MIGRATIONS).split("\n").filter(Boolean)) {
    const parent = spawnSync("git", ["rev-parse", "--verify", "--quiet", `${changed}^`], {
      cwd: root,
      encoding: "utf8",
    }).stdout.trim();
    if (!parent) {
      break;
    }
    const old = migrationsAt(parent);
    const prefix = [...old].every(([name, blob]) => current.get(name) === blob);
    const newMigrations = [...current.keys()].filter((name) => !old.has(name)).sort();
    const oldest = [...old.keys()].sort().at(-1) ?? "";
    if (prefix && newMigrations.length > 0 && newMigrations.every((name) => name > oldest)) {
      return { commit: parent, subject: git("log", "-1", "--format=%s", parent), newMigrations };
    }
  }
  throw new Error(`no ancestor of HEAD has a strict prefix of its migrations (${MIGRATIONS})`);
};

/** Extracts and builds `commit`'s API into `dir`; returns the built dist folder. */
export const buildRelease = (commit: string, dir: string): string => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  sh("tar", ["-x", "-C", dir], { input: sh("git", ["archive", commit]) });
  // The store this tree was installed from (whatever HOME the test runner passes on).
  const storeDir = /"storeDir": "([^"]+)"/.exec(
    readFileSync(path.join(root, "node_modules", ".modules.yaml"), "utf8"),
  )?.[1];
  sh(
    "pnpm",
    [
      "install",
      "--frozen-lockfile",
      "--prefer-offline",
      "--ignore-scripts",
      ...(storeDir ? ["--store-dir", storeDir] : []),
    ],
    { cwd: dir },
  );
  sh("pnpm", ["--filter", "@agora/db", "run", "build"], { cwd: dir });
  sh("pnpm", ["--filter", "@agora/api", "run", "build"], { cwd: dir });
  const dist = path.join(dir, "apps", "api", "dist");
  if (!existsSync(path.join(dist, "main.js"))) {
    throw new Error(`the build of ${commit} made no apps/api/dist/main.js`);
  }

  return dist;
};
