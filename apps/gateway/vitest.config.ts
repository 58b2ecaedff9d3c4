import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "gateway",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // A throwaway PostgreSQL server for the state layer's second backend and the several-gateways test.
    globalSetup: ["test/support/postgres-global-setup.ts"],
    benchmark: { include: ["bench/**/*.bench.ts", "src/**/*.bench.ts"] },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
