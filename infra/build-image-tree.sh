#!/usr/bin/env bash
# Builds the production file tree of one image: the app's bundle and its production node_modules.
#
#   infra/build-image-tree.sh OUTPUT_DIR api|worker
#
# infra/Dockerfile runs exactly this in its build stage (and copies OUTPUT_DIR to /app), and
# infra/test/image-tree.int.test.ts runs it on this machine, so the recipe is proven without Docker.
# Needs Node.js 24 and pnpm 10 on PATH. Downloads happen here (build time), never at run time.
set -euo pipefail

usage() { echo "usage: $0 OUTPUT_DIR api|worker" >&2; exit 2; }
[ $# -eq 2 ] || usage
out=$1
app=$2
case "$app" in api | worker) ;; *) usage ;; esac

src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then
  echo "build-image-tree: $out is not empty" >&2
  exit 1
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/agora-image-$app.XXXXXX")
trap 'rm -rf "$work"' EXIT
step() { printf '==> %s\n' "$*"; }

export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 CI=${CI:-1}

# 1. The app's slice of the workspace with a lockfile for it alone. turbo comes from the workspace
#    install when there is one, else from the registry at the catalog's version.
step "turbo prune @agora/$app"
if [ -x "$src/node_modules/.bin/turbo" ]; then
  turbo=("$src/node_modules/.bin/turbo")
else
  version=$(sed -n 's/^  turbo: *//p' "$src/pnpm-workspace.yaml")
  [ -n "$version" ] || { echo "build-image-tree: no turbo version in the catalog" >&2; exit 1; }
  turbo=(pnpm dlx "turbo@$version")
fi
(cd "$src" && "${turbo[@]}" prune "@agora/$app" --out-dir "$work/repo" >/dev/null)
# The shared TypeScript settings every package extends; not a workspace package, so prune skips it.
# Only that folder: tooling's workspace packages (the reference check) are not in the pruned lockfile.
mkdir -p "$work/repo/tooling"
cp -R "$src/tooling/typescript" "$work/repo/tooling/typescript"
cd "$work/repo"

# 2. Everything the build needs (tsup, the prisma CLI), exactly as locked.
step "pnpm install --frozen-lockfile"
pnpm install --frozen-lockfile --prefer-offline --reporter=append-only >/dev/null

# 3. The build: the db package runs `prisma generate` offline and bundles the migrations; tsup
#    bundles the workspace packages into apps/$app/dist.
step "turbo run build --filter=@agora/$app"
pnpm exec turbo run build --filter="@agora/$app" --output-logs=errors-only

# 4. Production dependencies only, from the same lockfile (pnpm 10's deploy derives a dedicated
#    lockfile when workspace packages are injected; enabling that for this one command leaves the
#    workspace's own linking alone).
step "pnpm deploy --prod"
pnpm --config.inject-workspace-packages=true --filter "@agora/$app" deploy --prod "$out" >/dev/null

# 5. Only what runs: dist, package.json, production node_modules (see the trim script for what goes).
step "trim"
node "$src/infra/scripts/trim-deployed-tree.mjs" "$out"
find "$out" -mindepth 1 -maxdepth 1 ! -name dist ! -name node_modules ! -name package.json -exec rm -rf {} +
step "$out: $(du -sh "$out" | cut -f1)"
