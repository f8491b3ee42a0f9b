import { copyFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/main.ts", "src/start.ts", "src/cli.ts"],
  format: ["esm"],
  platform: "node",
  target: "node22",
  sourcemap: true,
  clean: true,
  splitting: true,
  // Our workspace packages are bundled (their exports point at TypeScript sources); third-party
  // packages stay external and resolve from this app's node_modules.
  noExternal: [/^@agora\//],
  // /docs serves Scalar's browser bundle from dist/ (src/http/docs.ts): a production tree then needs
  // no @scalar package (a development dependency) and its hundreds of files.
  onSuccess: async () => {
    const entry = createRequire(import.meta.url).resolve("@scalar/api-reference");
    copyFileSync(join(dirname(entry), "browser", "standalone.js"), "dist/scalar-standalone.js");
  },
  esbuildOptions(options) {
    options.conditions = ["@agora/source"];
  },
});
