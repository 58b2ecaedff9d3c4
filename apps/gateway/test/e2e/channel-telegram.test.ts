import { fileURLToPath } from "node:url";
import { createFakeTelegram, type FakeTelegram, mentionEntities } from "@chorus/channel-telegram/testing";
import { eventually, waitFor } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createFakeOpenAI,
  type FakeChatRequest,
  type FakeOpenAI,
  fakeModelConfig,
  lastUserText,
} from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-telegram", import.meta.url));
const GROUP = -1002000000001;
const ANN = { id: 501, is_bot: false as const, first_name: "Ann" };
const BOB = { id: 502, is_bot: false as const, first_name: "Bob" };
const CONTEXT = "[Chat messages since your last reply - for context]";
const CURRENT = "[Current message - respond to this]";

/** The gateway config of these tests: Telegram against the fake, one agent on the fake model. */
function gatewayConfig(telegram: FakeTelegram, model: FakeOpenAI): Record<string, unknown> {
  return {
    plugins: { load: [PLUGIN] },
    channels: {
      telegram: { ...telegram.config(), groupPolicy: "open", dmPolicy: "open" },
    },
    agents: { list: [{ id: "main", name: "Chorus", model: fakeModelConfig(model, { apiKey: "sk-test" }) }] },
  };
}

/** The system prompt of a model request. */
function systemText(request: FakeChatRequest | undefined): string {
  const content = request?.messages.find((m) => m.role === "system")?.content;
  return typeof content === "string" ? content : (content ?? []).map((part) => part.text ?? "").join("");
}

describe("Telegram through the real gateway process", () => {
  let telegram: FakeTelegram;
  let model: FakeOpenAI;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    telegram = createFakeTelegram();
    await telegram.start();
    telegram.addChat({ id: GROUP, type: "supergroup", title: "Family" });
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    gateway = await startGatewayProcess({ config: gatewayConfig(telegram, model) });
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

describe("Telegram reaction notifications across a gateway restart (reactionNotifications: own)", () => {
  let telegram: FakeTelegram;
  let model: FakeOpenAI;
  let gateway: GatewayProcess | undefined;
  const getUpdates = () => telegram.server.requestsTo("POST", /\/getUpdates$/).length;
  /** Starts `chorus start --verbose` (debug lines say how each reaction was routed) and waits for its first poll. */
  const startGateway = async (home?: string) => {
    const polls = getUpdates();
    gateway = await startGatewayProcess({
      config: gatewayConfig(telegram, model),
      args: ["--verbose"],
      ...(home ? { home } : {}),
    });
    await waitFor(() => getUpdates() > polls, { timeoutMs: 15_000, message: "the first poll of the gateway" });
    return gateway;
  };
  const botSays = (text: string) =>
    eventually(
      () => {
        const sent = telegram.messagesIn(GROUP).find((m) => m.from?.id === telegram.bot.id && m.text === text);
        expect(sent).toBeDefined();
        return sent as NonNullable<typeof sent>;
      },
      { timeoutMs: 15_000 },
    );

  beforeAll(async () => {
    telegram = createFakeTelegram();
    await telegram.start();
    telegram.addChat({ id: GROUP, type: "supergroup", title: "Family" });
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    await startGateway();
  }, 30_000);

  afterAll(async () => {
    await gateway?.stop();
    await model?.close();
    await telegram?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("a reaction to a bot message sent before the restart reaches the next turn; one on a person's message does not", async () => {
    // Before the restart: the bot answers Ann, and Bob writes something of his own (no mention, no turn).
    model.script({ text: "Pasta at 7." });
    const question = "@chorus_test_bot what's for dinner?";
    telegram.userSends({ chatId: GROUP, from: ANN, text: question, entities: mentionEntities(question) });
    const reply = await botSays("Pasta at 7.");
    const wine = telegram.userSends({ chatId: GROUP, from: BOB, text: "I bring wine" });
    await eventually(() => expect(telegram.state.pending).toEqual([]), { timeoutMs: 10_000 });
    expect(model.requests).toHaveLength(1);

    // A gateway restart: the plugin instance that sent the reply is gone.
    const home = (gateway as GatewayProcess).home;
    expect(await (gateway as GatewayProcess).stop()).toBe(0);
    const restarted = await startGateway(home);

    telegram.userReacts(GROUP, reply.message_id, ANN, ["👍"]);
    telegram.userReacts(GROUP, wine.message_id, ANN, ["🎉"]);
    const routed = await waitFor(
      () => {
        const lines = restarted.logs().filter((line) => line.msg === "inbound reaction");
        return lines.length >= 2 ? lines : undefined;
      },
      { timeoutMs: 10_000, message: "both reactions routed" },
    );
    expect(routed.map((line) => [line.emoji, line.accepted])).toEqual([
      ["👍", true],
      ["🎉", false],
    ]);
    expect(model.requests).toHaveLength(1); // reactions start no turn

    model.script({ text: "Noted." });
    const next = "@chorus_test_bot who is coming?";
    telegram.userSends({ chatId: GROUP, from: BOB, text: next, entities: mentionEntities(next) });
    await botSays("Noted.");
    const system = systemText(model.requests[1]);
    expect(system).toContain(
      `System events since your last reply:\n- Telegram reaction added: 👍 by Ann on msg ${reply.message_id}`,
    );
    expect(system).not.toContain("🎉");
  });
});
