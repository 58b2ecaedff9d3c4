import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "channel-signal",
    include: ["src/**/*.test.ts"],
  },
});
