import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ModelProviderMissingError } from "../agent/index.js";
import { parseConfig } from "../config/index.js";
import { sqliteFile } from "../state/index.js";
import { chorusPaths, createLogger } from "../support/index.js";
import { installGatewayLayout } from "../testing/index.js";
import { startGateway } from "./gateway.js";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("startGateway: a configured provider that is not installed", () => {
  it("fails at start with the typed error, before opening state or channels", async () => {
    const root = await mkdtemp(join(tmpdir(), "chorus-start-provider-"));
    dirs.push(root);
    const gatewayDir = join(root, "node_modules", "@chorus", "gateway");
    await installGatewayLayout(gatewayDir, { providers: false });
    const paths = chorusPaths(join(root, "home"), {});
    const config = parseConfig(
      {
        gateway: { port: 0 },
        agents: { list: [{ id: "helper", model: { provider: "anthropic", model: "claude-x" } }] },
      },
      { env: {} },
    );
    const logger = createLogger({ format: "json", destination: { write: () => {} } });
    const start = startGateway({ paths, loaded: { config, file: paths.config, exists: true }, logger, gatewayDir });
    await expect(start).rejects.toBeInstanceOf(ModelProviderMissingError);
    await expect(start).rejects.toMatchObject({
      message: expect.stringContaining(`Install it with: cd ${root} && npm i @ai-sdk/anthropic@^`),
      details: { agent: "helper", provider: "anthropic" },
    });
    expect(existsSync(sqliteFile(paths.home))).toBe(false);
  });
});
