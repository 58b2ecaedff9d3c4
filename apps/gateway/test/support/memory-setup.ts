import { join } from "node:path";
import { createMemoryPlatform, type MemoryPlatform } from "@chorus/testkit";
import { createFakeOpenAI, type FakeOpenAI } from "../../src/testing/index.js";
import { FIXTURES } from "./gateway-process.js";

export interface ModelWorld {
  platform: MemoryPlatform;
  model: FakeOpenAI;
  /** Config for the gateway: DMs and groups open (access control is tested on its own); `memory` adds channel keys. */
  config(options?: {
    stream?: boolean;
    extra?: Record<string, unknown>;
    memory?: Record<string, unknown>;
  }): Record<string, unknown>;
  close(): Promise<void>;
}

/** A memory platform with one group and one DM, and a fake model server, for end-to-end tests. */
export async function createModelWorld(): Promise<ModelWorld> {
  const platform = createMemoryPlatform();
  await platform.start();
  platform.addConversation({
    id: "family",
    kind: "group",
    title: "Family",
    members: [
      { id: "ann", name: "Ann", phone: "+4915100000001" },
      { id: "bob", name: "Bob", phone: "+4915100000002" },
    ],
  });
  platform.addConversation({
    id: "dm-ann",
    kind: "direct",
    members: [{ id: "ann", name: "Ann", phone: "+4915100000001" }],
  });
  const model = await createFakeOpenAI({ apiKey: "sk-test" });
  return {
    platform,
    model,
    config: (options = {}) => ({
      plugins: { load: [join(FIXTURES, "memory-channel")] },
      channels: {
        memory: {
          baseUrl: platform.url,
          token: platform.token,
          pollWaitMs: 2000,
          retries: 1,
          dmPolicy: "open",
          groupPolicy: "open",
          ...(options.memory ?? {}),
        },
      },
      agents: {
        list: [
          {
            id: "main",
            name: "Chorus",
            model: {
              provider: "openai-compatible",
              baseURL: model.url,
              apiKey: "sk-test",
              model: "fake-model",
              stream: options.stream ?? false,
              maxRetries: 0,
              timeoutMs: 5000,
            },
          },
        ],
      },
      ...options.extra,
    }),
    async close() {
      await model.close();
      await platform.close();
    },
  };
}
