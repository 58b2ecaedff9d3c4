import { defineConfig } from "vitest/config";
import { isContractProbe } from "./packages/testkit/vitest.probe.js";

// One run over every package's own vitest config, with one summary at the end.
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts", "apps/*/vitest.config.ts", "examples/*/vitest.config.ts"],
    reporters: ["default", "./scripts/vitest-summary-reporter.ts"],
    maxWorkers: 2,
    // The contract suite's own tests make plugins leak rejections on purpose, to show it catches them.
    onUnhandledError: (error) => !isContractProbe(error),
  },
});
