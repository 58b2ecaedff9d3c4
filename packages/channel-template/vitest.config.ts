import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "channel-template",
    include: ["src/**/*.test.ts"],
  },
});
