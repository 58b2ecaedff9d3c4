import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeAnthropic, type FakeProvider } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { moduleRecords } from "../support/loading-plugins.js";
import { createModelWorld, type ModelWorld } from "../support/memory-setup.js";

const PROVIDER_MODULES = /@ai-sdk\/(openai|anthropic|google|openai-compatible)\/|ollama-ai-provider/;

describe("model providers are loaded only when an agent uses one", () => {
  let world: ModelWorld;
  let anthropic: FakeProvider;
  const gateways: GatewayProcess[] = [];

  beforeAll(async () => {
    world = await createModelWorld();
    anthropic = await createFakeAnthropic({ apiKey: "sk-ant-test" });
  });
  afterAll(async () => {
    for (const gateway of gateways) {
      await gateway.stop();
      await removeHome(gateway.home);
    }
    await anthropic?.close();
    await world?.close();
  });

  it("the demo agent: no provider module is imported at all", async () => {
    const gateway = await startGatewayProcess({ noConfig: true, env: {} });
    gateways.push(gateway);
    const records = moduleRecords(gateway.home);
    // A second gateway on the same home, recorded: the first one only made the home.
    await gateway.stop();
    const recorded = await startGatewayProcess({ home: gateway.home, noConfig: true, env: records.env });
    gateways.push(recorded);
    const modules = await records.modules();
    // The record holds the start's files (the CLI's bundle, core's), so an empty filter below means something.
    expect(modules.filter((url) => /\/dist\/bin\/chorus\.js$|\/core\/dist\/bundle\/index\.js$/.test(url))).toHaveLength(
      2,
    );
    expect(modules.filter((url) => PROVIDER_MODULES.test(url))).toEqual([]);
  });

  it("an Anthropic agent answers through the gateway, and only Anthropic's module is loaded", async () => {
    const config = world.config({
      extra: {
        agents: {
          list: [
            {
              id: "main",
              name: "Chorus",
              model: {
                provider: "anthropic",
                baseURL: anthropic.url,
                apiKey: "sk-ant-test",
                model: "claude-test",
                maxRetries: 0,
              },
            },
          ],
        },
      },
    });
    const probe = await startGatewayProcess({ config });
    gateways.push(probe);
    const records = moduleRecords(probe.home);
    await probe.stop();
    const gateway = await startGatewayProcess({ home: probe.home, config, env: records.env });
    gateways.push(gateway);
    anthropic.script({ text: "Hello from Claude." });
    world.platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "hi claude" });
    await eventually(
      () => expect(world.platform.messagesIn("dm-ann").some((m) => m.text === "Hello from Claude.")).toBe(true),
      { timeoutMs: 10_000 },
    );
    expect(JSON.stringify(anthropic.requests.at(-1))).toContain("hi claude");
    const loaded = (await records.modules()).filter((url) => PROVIDER_MODULES.test(url));
    expect(loaded.some((url) => url.includes("@ai-sdk/anthropic/"))).toBe(true);
    expect(loaded.filter((url) => !url.includes("@ai-sdk/anthropic/"))).toEqual([]);
  });
});
