import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "channel-kit",
    include: ["src/**/*.test.ts"],
  },
});
