import { readdirSync } from "node:fs";
import { defineConfig } from "tsup";

// One entry per area file, so clients import `@agora/contracts/orders` without a barrel.
const entry = readdirSync("src")
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
  .map((file) => `src/${file}`);

export default defineConfig({
  entry,
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2023",
  external: ["zod"],
});
