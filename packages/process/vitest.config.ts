import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { conditions: ["@agora/source"] },
  ssr: { resolve: { conditions: ["@agora/source"] } },
  test: {
    include: ["src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
