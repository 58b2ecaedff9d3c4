import { defineConfig } from "vitest/config";
import { fakeMediaCaFile } from "./src/testing/media-tls.js";

export default defineConfig({
  test: {
    name: "channel-whatsapp",
    include: ["src/**/*.test.ts"],
    // Baileys reaches the fake media host over HTTPS only; the workers trust its certificate
    // (Node reads NODE_EXTRA_CA_CERTS when a process starts: these are the workers' own env).
    env: { NO_PROXY: "127.0.0.1,localhost", NODE_EXTRA_CA_CERTS: fakeMediaCaFile() },
  },
});
