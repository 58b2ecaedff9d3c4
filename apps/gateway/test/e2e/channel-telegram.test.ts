import { fileURLToPath } from "node:url";
import { createFakeTelegram, type FakeTelegram, mentionEntities } from "@chorus/channel-telegram/testing";
import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeOpenAI, type FakeOpenAI, fakeModelConfig, lastUserText } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-telegram", import.meta.url));
const GROUP = -1002000000001;
const ANN = { id: 501, is_bot: false as const, first_name: "Ann" };
const BOB = { id: 502, is_bot: false as const, first_name: "Bob" };
const CONTEXT = "[Chat messages since your last reply - for context]";
const CURRENT = "[Current message - respond to this]";

describe("Telegram through the real gateway process", () => {
  let telegram: FakeTelegram;
  let model: FakeOpenAI;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    telegram = createFakeTelegram();
    await telegram.start();
    telegram.addChat({ id: GROUP, type: "supergroup", title: "Family" });
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [PLUGIN] },
        channels: {
          telegram: { ...telegram.config(), groupPolicy: "open", dmPolicy: "open" },
        },
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
    await telegram.server.waitForRequest({ path: /\/getUpdates$/ }, { timeoutMs: 15_000 });
  }, 30_000);

  afterAll(async () => {
    await gateway?.stop();
    await model?.close();
    await telegram?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("an unmentioned message is buffered; the next mention brings it, and the reply and reaction reach Telegram", async () => {
    telegram.userSends({ chatId: GROUP, from: ANN, text: "Pizza tonight?" });
    await eventually(() => expect(telegram.state.pending).toEqual([]), { timeoutMs: 10_000 });
    expect(model.requests).toHaveLength(0); // no mention: no turn

    model.script(
      { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "❤️" } }] },
      { text: "Pizza it is." },
    );
    const text = "@chorus_test_bot what do you think?";
    const trigger = telegram.userSends({ chatId: GROUP, from: BOB, text, entities: mentionEntities(text) });

    await eventually(
      () =>
        expect(
          telegram
            .messagesIn(GROUP)
            .filter((m) => m.from?.id === telegram.bot.id)
            .map((m) => m.text),
        ).toEqual(["Pizza it is."]),
      { timeoutMs: 15_000 },
    );
    const reply = telegram.messagesIn(GROUP).find((m) => m.text === "Pizza it is.");
    expect(reply?.reply_to_message?.message_id).toBe(trigger.message_id);
    // The agent's ❤ (sent without U+FE0F) holds the bot's single slot once the turn is over.
    await eventually(() => expect(telegram.botReactions(GROUP, trigger.message_id)).toEqual(["❤"]), {
      timeoutMs: 10_000,
    });
    const reactions = telegram.server.requestsTo("POST", /\/setMessageReaction$/).map((r) => r.body);
    expect(reactions).toContainEqual(
      expect.objectContaining({ message_id: trigger.message_id, reaction: [{ type: "emoji", emoji: "❤" }] }),
    );

    const first = model.requests[0];
    const batch = lastUserText(first);
    expect(batch).toContain(CONTEXT);
    expect(batch).toContain("Ann: Pizza tonight?");
    expect(batch).toContain(CURRENT);
    expect(batch).toContain(`Bob: ${text}`);
    expect(batch.indexOf("Pizza tonight?")).toBeLessThan(batch.indexOf(CURRENT));
    expect(telegram.state.chatActions.some((a) => a.chat_id === GROUP && a.action === "typing")).toBe(true);
  });
});
