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
  esbuildOptions(options) {
    options.conditions = ["@agora/source"];
  },
});
