// Trims a `pnpm deploy --prod` output to what the bundled application loads at run time.
//
// Usage: node infra/scripts/trim-deployed-tree.mjs <deployed-dir>
//
// What goes, and why it is safe:
// - `@agora/*` workspace packages: tsup bundles them into dist (noExternal), so dist never imports
//   them; this script refuses to run if a dist file does.
// - Packages reachable only through an optional peer dependency. @prisma/client lists the prisma
//   CLI and TypeScript as optional peers; pnpm (auto-install-peers) installs them, and with them
//   Prisma Studio, React and Effect: a few hundred MB that nothing loads at run time.
// - @prisma/client's query compilers for other databases (about 11 MB each): dist imports the
//   compiler of the schema's provider alone, and only those imports decide what stays.
// Everything reachable from the app's dependencies through dependencies, optionalDependencies and
// non-optional peerDependencies is kept, whole. Dangling links left behind are removed.
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import path from "node:path";

const WORKSPACE_SCOPE = "@agora/";

const root = path.resolve(process.argv[2] ?? "");
if (!process.argv[2] || !existsSync(path.join(root, "package.json"))) {
  console.error("usage: trim-deployed-tree.mjs <deployed-dir with package.json and node_modules>");
  process.exit(2);
}
const nodeModules = path.join(root, "node_modules");
const virtualStore = path.join(nodeModules, ".pnpm");

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

const distFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return distFiles(full);
    }

    return entry.name.endsWith(".js") ? [full] : [];
  });

const dist = path.join(root, "dist");
if (!existsSync(dist)) {
  console.error(`trim: ${dist} is missing (build before deploying)`);
  process.exit(1);
}
const importsWorkspace = /(?:from\s*|import\s*\(\s*|require\s*\(\s*)["']@agora\//;
const compilerImport = /["']@prisma\/client\/runtime\/query_compiler_\w+_bg\.(\w+)\./g;
const compilerProviders = new Set();
for (const file of distFiles(dist)) {
  const text = readFileSync(file, "utf8");
  if (importsWorkspace.test(text)) {
    console.error(`trim: ${path.relative(root, file)} imports an @agora/ package; it must be bundled`);
    process.exit(1);
  }
  for (const match of text.matchAll(compilerImport)) {
    compilerProviders.add(match[1]);
  }
}

/** Node's lookup: <dir>/node_modules/<name>, then each parent's, never above the deployed root. */
const locate = (name, fromDir) => {
  for (let dir = fromDir; dir.startsWith(root); dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) {
      return realpathSync(candidate);
    }
    if (dir === root) {
      break;
    }
  }

  return undefined;
};

const kept = new Set();
const queue = [];
const enqueue = (name, fromDir, required, via) => {
  if (name.startsWith(WORKSPACE_SCOPE)) {
    return;
  }
  const dir = locate(name, fromDir);
  if (!dir) {
    if (required) {
      console.error(`trim: ${name} (needed by ${via}) is not installed`);
      process.exit(1);
    }

    return;
  }
  if (!kept.has(dir)) {
    kept.add(dir);
    queue.push(dir);
  }
};

const app = readJson(path.join(root, "package.json"));
for (const name of Object.keys(app.dependencies ?? {})) {
  enqueue(name, root, true, app.name);
}
for (const name of Object.keys(app.optionalDependencies ?? {})) {
  enqueue(name, root, false, app.name);
}
while (queue.length > 0) {
  const dir = queue.shift();
  const manifest = readJson(path.join(dir, "package.json"));
  // A package's own dependencies are siblings in the virtual store: look up from its folder.
  const from = dir;
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    enqueue(name, from, true, manifest.name);
  }
  for (const name of Object.keys(manifest.optionalDependencies ?? {})) {
    enqueue(name, from, false, manifest.name);
  }
  const optionalPeers = manifest.peerDependenciesMeta ?? {};
  for (const name of Object.keys(manifest.peerDependencies ?? {})) {
    if (!optionalPeers[name]?.optional) {
      enqueue(name, from, true, manifest.name);
    }
  }
}

// Query compilers of providers dist never imports (only when dist imports one at all).
let compilersRemoved = 0;
for (const dir of kept) {
  const runtimeDir = path.join(dir, "runtime");
  if (compilerProviders.size === 0 || !dir.endsWith(`${path.sep}@prisma${path.sep}client`)) {
    continue;
  }
  for (const file of readdirSync(runtimeDir)) {
    const provider = /^query_compiler_\w+_bg\.(\w+)\./.exec(file)?.[1];
    if (provider && !compilerProviders.has(provider)) {
      rmSync(path.join(runtimeDir, file));
      compilersRemoved += 1;
    }
  }
}

const keptEntries = new Set(
  [...kept]
    .filter((dir) => dir.startsWith(`${virtualStore}${path.sep}`))
    .map((dir) => path.relative(virtualStore, dir).split(path.sep)[0]),
);
let removed = 0;
for (const entry of readdirSync(virtualStore)) {
  if (entry === "node_modules" || entry.startsWith(".") || entry === "lock.yaml") {
    continue;
  }
  if (!keptEntries.has(entry)) {
    rmSync(path.join(virtualStore, entry), { recursive: true, force: true });
    removed += 1;
  }
}

// Links into removed entries (hoisted aliases, .bin shims, the workspace packages) now dangle.
const removeDangling = (dir) => {
  if (!existsSync(dir)) {
    return;
  }
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    const stat = lstatSync(full);
    if (stat.isSymbolicLink()) {
      let target;
      try {
        target = statSync(full);
      } catch {
        target = undefined;
      }
      if (!target || path.relative(root, full).startsWith(`node_modules${path.sep}@agora`)) {
        rmSync(full, { force: true });
      }
    } else if (
      stat.isDirectory() &&
      (entry.startsWith("@") || entry === ".bin" || entry === "node_modules")
    ) {
      removeDangling(full);
      if (readdirSync(full).length === 0) {
        rmSync(full, { recursive: true, force: true });
      }
    }
  }
};
removeDangling(nodeModules);
removeDangling(path.join(virtualStore, "node_modules"));

console.log(
  `trim: kept ${keptEntries.size} packages, removed ${removed} not loaded at run time` +
    (compilersRemoved > 0
      ? `; removed ${compilersRemoved} Prisma query compiler files (dist uses ${[...compilerProviders].join(", ")})`
      : ""),
);
