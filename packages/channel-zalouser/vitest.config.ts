import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "channel-zalouser",
    include: ["src/**/*.test.ts"],
  },
});
