import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "channel-slack",
    include: ["src/**/*.test.ts"],
  },
});
