import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    // Building an image tree (prune, install, build, deploy) takes a while on two cores.
    hookTimeout: 300_000,
  },
});
