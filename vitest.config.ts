import { defineConfig } from "vitest/config";

// One run over every package's own vitest config, with one summary at the end.
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts", "apps/*/vitest.config.ts"],
    reporters: ["default", "./scripts/vitest-summary-reporter.ts"],
    maxWorkers: 2,
  },
});
