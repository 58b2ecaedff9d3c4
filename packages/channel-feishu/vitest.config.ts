import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "channel-feishu",
    include: ["src/**/*.test.ts"],
    // The SDK's own HTTP client (axios) reads proxy settings; every call here goes to 127.0.0.1.
    env: { NO_PROXY: "127.0.0.1,localhost", no_proxy: "127.0.0.1,localhost" },
  },
});
