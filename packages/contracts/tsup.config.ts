import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

// One entry per subpath of the exports map (an area, `<area>.admin`, `client`, `client.admin`,
// `realtime`), so the map and the build cannot disagree and clients import without a barrel.
const { exports } = JSON.parse(readFileSync("package.json", "utf8")) as {
  exports: Record<string, string | { "@agora/source": string }>;
};
const entry = Object.values(exports).flatMap((target) =>
  typeof target === "string" ? [] : [target["@agora/source"]],
);

export default defineConfig({
  entry,
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2023",
  external: ["zod"],
});
