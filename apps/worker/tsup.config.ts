import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/main.ts"],
  format: ["esm"],
  platform: "node",
  target: "node22",
  sourcemap: true,
  clean: true,
  // OpenTelemetry (loaded only when configured) stays in a chunk of its own, imported on demand.
  splitting: true,
  noExternal: [/^@agora\//],
  esbuildOptions(options) {
    options.conditions = ["@agora/source"];
  },
});
