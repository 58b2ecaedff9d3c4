import { defineConfig } from "vitest/config";
import { isContractProbe } from "./vitest.probe.js";

export default defineConfig({
  test: {
    name: "testkit",
    include: ["src/**/*.test.ts"],
    // The contract's own tests make plugins leak rejections on purpose, to show the suite catches them.
    onUnhandledError: (error) => !isContractProbe(error),
  },
});
