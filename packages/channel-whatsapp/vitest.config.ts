import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "channel-whatsapp",
    include: ["src/**/*.test.ts"],
    env: { NO_PROXY: "127.0.0.1,localhost" },
  },
});
