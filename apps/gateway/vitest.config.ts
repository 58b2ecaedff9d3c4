import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "gateway",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    benchmark: { include: ["bench/**/*.bench.ts", "src/**/*.bench.ts"] },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
