import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/main.ts"],
  format: ["esm"],
  platform: "node",
  target: "node22",
  sourcemap: true,
  clean: true,
  noExternal: [/^@agora\//],
  esbuildOptions(options) {
    options.conditions = ["@agora/source"];
  },
});
