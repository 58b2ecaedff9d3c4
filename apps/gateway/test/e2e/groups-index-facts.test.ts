import { join } from "node:path";
import { waitFor } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeChatRequest } from "../../src/testing/index.js";
import { FIXTURES, type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { createModelWorld, type ModelWorld } from "../support/memory-setup.js";

/** The system prompt a model request carried. */
const systemOf = (request: FakeChatRequest | undefined) =>
  (request?.messages ?? [])
    .filter((m) => m.role === "system")
    .map((m) => String(m.content))
    .join("\n");

describe("the bot's own messages, known from the gateway's index (a channel that cannot say fromBot)", () => {
  let world: ModelWorld;
  let gateway: GatewayProcess;
  let config: Record<string, unknown>;

  beforeAll(async () => {
    world = await createModelWorld();
    const base = world.config() as { channels: { memory: Record<string, unknown> } } & Record<string, unknown>;
    config = {
      ...base,
      plugins: { load: [join(FIXTURES, "forgetful-channel")] },
      channels: { forgetful: base.channels.memory },
    };
    gateway = await startGatewayProcess({ config });
  });
  afterAll(async () => {
    await gateway?.stop();
    await world?.close();
    if (gateway) await removeHome(gateway.home);
  });

  const botSaid = (text: string) =>
    waitFor(() => world.platform.messagesIn("family").find((m) => m.senderId === "bot" && m.text === text), {
      timeoutMs: 10_000,
      message: `the bot's "${text}"`,
    });

  it("after a restart, a reaction to the bot's earlier reply is a notification and a reply to it wakes the agent", async () => {
    const { platform, model } = world;
    model.script({ text: "Noted: dinner at 8." });
    platform.userSends({ conversationId: "family", senderId: "ann", text: "@Chorus dinner at 8", mentions: ["bot"] });
    const reply = await botSaid("Noted: dinner at 8.");

    await gateway.stop("SIGTERM");
    gateway = await startGatewayProcess({ config, home: gateway.home });

    const before = model.requests.length;
    platform.userReacts(reply.id, "ann", "👍");
    model.script({ text: "Glad it works." });
    // No mention: only the index knows that the replied-to message is the bot's.
    platform.userSends({ conversationId: "family", senderId: "ann", text: "perfect, thanks", replyToId: reply.id });
    await botSaid("Glad it works.");
    const next = model.requests.slice(before);
    expect(next).toHaveLength(1);
    expect(systemOf(next[0])).toContain(`Forgetful reaction added: 👍 by Ann on msg ${reply.id}`);
  });
});
