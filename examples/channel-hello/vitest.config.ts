import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "channel-hello",
    include: ["src/**/*.test.ts"],
  },
});
