import { fileURLToPath } from "node:url";
import { createFakeDiscord, type FakeDiscord } from "@chorus/channel-discord/testing";
import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeOpenAI, type FakeOpenAI, fakeModelConfig, lastUserText } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-discord", import.meta.url));
const ANN = { id: "700000000000000001", username: "ann", global_name: "Ann" };
const BOB = { id: "700000000000000002", username: "bob", global_name: "Bob" };
const CONTEXT = "[Chat messages since your last reply - for context]";
const CURRENT = "[Current message - respond to this]";

describe("Discord through the real gateway process", () => {
  let discord: FakeDiscord;
  let model: FakeOpenAI;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    discord = createFakeDiscord();
    await discord.start();
    discord.addGuild({ id: "100", name: "Family", channels: [{ id: "200", name: "general" }] });
    discord.addMember("100", ANN);
    discord.addMember("100", BOB);
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [PLUGIN] },
        channels: { discord: { ...discord.config(), groupPolicy: "open", dmPolicy: "open" } },
        agents: {
          list: [
            {
              id: "main",
              name: "Chorus",
              model: fakeModelConfig(model, { apiKey: "sk-test" }),
            },
          ],
        },
      },
    });
    // The gateway's Discord instance has identified on the fake's WebSocket and received READY.
    await eventually(() => expect(discord.gateway.sessions.size).toBe(1), { timeoutMs: 15_000 });
  }, 30_000);

  afterAll(async () => {
    await gateway?.stop();
    await model?.close();
    await discord?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("an unmentioned message is buffered; the next mention brings it, and the reply and reaction reach Discord", async () => {
    discord.userSends({ channelId: "200", author: ANN, content: "Pizza tonight?" });
    model.script(
      { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "❤️" } }] },
      { text: "Pizza it is." },
    );
    const trigger = discord.userSends({
      channelId: "200",
      author: BOB,
      content: `<@${discord.bot.id}> what do you think?`,
    });

    const fromBot = () => discord.messagesIn("200").filter((m) => m.author.id === discord.bot.id);
    await eventually(() => expect(fromBot().map((m) => m.content)).toEqual(["Pizza it is."]), { timeoutMs: 15_000 });
    expect(fromBot()[0]?.message_reference?.message_id).toBe(trigger.id);
    await eventually(() => expect(discord.botReactions(trigger.id)).toEqual(["❤️"]), { timeoutMs: 10_000 });
    const put = discord.server.requestsTo("PUT", /\/reactions\//).map((r) => r.path);
    expect(put).toContain(`/api/v10/channels/200/messages/${trigger.id}/reactions/%E2%9D%A4%EF%B8%8F/@me`);

    expect(model.requests).toHaveLength(2); // one turn: the tool call, then the reply
    const batch = lastUserText(model.requests[0]);
    expect(batch).toContain(CONTEXT);
    expect(batch).toContain("Ann: Pizza tonight?");
    expect(batch).toContain(CURRENT);
    expect(batch).toContain("Bob: @Chorus what do you think?");
    expect(batch.indexOf("Pizza tonight?")).toBeLessThan(batch.indexOf(CURRENT));
    expect(discord.server.requestsTo("POST", "/api/v10/channels/200/typing").length).toBeGreaterThan(0);
  });
});
