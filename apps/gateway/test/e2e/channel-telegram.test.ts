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

/**
 * Telegram's own first example update, verbatim: "Message with text using curl" in
 * https://core.telegram.org/bots/webhooks#testing-your-bot-with-updates (archived in
 * github.com/MarshalX/telegram-crawler, `data/web/core.telegram.org/bots/webhooks.html`, commit
 * 09858599ec29fff5893cd1699b24ae44c3418d54; the package keeps all of them in
 * `packages/channel-telegram/src/fixtures/webhook-guide.ts`). Its user has no `is_bot`, its chat no `type`.
 */
const DOCS_UPDATE = {
  update_id: 10000,
  message: {
    date: 1441645532,
    chat: { last_name: "Test Lastname", id: 1111111, first_name: "Test", username: "Test" },
    message_id: 1365,
    from: { last_name: "Test Lastname", id: 1111111, first_name: "Test", username: "Test" },
    text: "/start",
  },
};
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

/** A fake Telegram with the group, a fake model, and a gateway running against both. */
interface TelegramWorld {
  readonly telegram: FakeTelegram;
  readonly model: FakeOpenAI;
  readonly gateway: GatewayProcess;
  /** Stops the gateway (it must exit cleanly) and starts a new one on the same home. */
  restart(): Promise<GatewayProcess>;
}

/** Registers the hooks that start the world before the tests of a `describe` and stop it after them. */
function telegramWorld(args: string[] = []): TelegramWorld {
  let telegram: FakeTelegram | undefined;
  let model: FakeOpenAI | undefined;
  let gateway: GatewayProcess | undefined;
  const polls = () => telegram?.server.requestsTo("POST", /\/getUpdates$/).length ?? 0;
  /** Starts `chorus start` and waits for its first poll. */
  const start = async (home?: string) => {
    const before = polls();
    gateway = await startGatewayProcess({
      config: gatewayConfig(telegram as FakeTelegram, model as FakeOpenAI),
      args,
      ...(home ? { home } : {}),
    });
    await waitFor(() => polls() > before, { timeoutMs: 15_000, message: "the gateway's first poll" });
    return gateway;
  };
  beforeAll(async () => {
    telegram = createFakeTelegram();
    await telegram.start();
    telegram.addChat({ id: GROUP, type: "supergroup", title: "Family" });
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    await start();
  }, 30_000);
  afterAll(async () => {
    await gateway?.stop();
    await model?.close();
    await telegram?.close();
    if (gateway) await removeHome(gateway.home);
  });
  return {
    get telegram() {
      return telegram as FakeTelegram;
    },
    get model() {
      return model as FakeOpenAI;
    },
    get gateway() {
      return gateway as GatewayProcess;
    },
    async restart() {
      const home = (gateway as GatewayProcess).home;
      expect(await gateway?.stop()).toBe(0);
      return start(home);
    },
  };
}

describe("Telegram through the real gateway process", () => {
  const world = telegramWorld();

  it("an unmentioned message is buffered; the next mention brings it, and the reply and reaction reach Telegram", async () => {
    world.telegram.userSends({ chatId: GROUP, from: ANN, text: "Pizza tonight?" });
    await eventually(() => expect(world.telegram.state.pending).toEqual([]), { timeoutMs: 10_000 });
    expect(world.model.requests).toHaveLength(0); // no mention: no turn

    world.model.script(
      { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "❤️" } }] },
      { text: "Pizza it is." },
    );
    const text = "@chorus_test_bot what do you think?";
    const trigger = world.telegram.userSends({ chatId: GROUP, from: BOB, text, entities: mentionEntities(text) });

    await eventually(
      () =>
        expect(
          world.telegram
            .messagesIn(GROUP)
            .filter((m) => m.from?.id === world.telegram.bot.id)
            .map((m) => m.text),
        ).toEqual(["Pizza it is."]),
      { timeoutMs: 15_000 },
    );
    const reply = world.telegram.messagesIn(GROUP).find((m) => m.text === "Pizza it is.");
    expect(reply?.reply_to_message?.message_id).toBe(trigger.message_id);
    // The agent's ❤ (sent without U+FE0F) holds the bot's single slot once the turn is over.
    await eventually(() => expect(world.telegram.botReactions(GROUP, trigger.message_id)).toEqual(["❤"]), {
      timeoutMs: 10_000,
    });
    const reactions = world.telegram.server.requestsTo("POST", /\/setMessageReaction$/).map((r) => r.body);
    expect(reactions).toContainEqual(
      expect.objectContaining({ message_id: trigger.message_id, reaction: [{ type: "emoji", emoji: "❤" }] }),
    );

    const first = world.model.requests[0];
    const batch = lastUserText(first);
    expect(batch).toContain(CONTEXT);
    expect(batch).toContain("Ann: Pizza tonight?");
    expect(batch).toContain(CURRENT);
    expect(batch).toContain(`Bob: ${text}`);
    expect(batch.indexOf("Pizza tonight?")).toBeLessThan(batch.indexOf(CURRENT));
    expect(world.telegram.state.chatActions.some((a) => a.chat_id === GROUP && a.action === "typing")).toBe(true);
  });
});

describe("Telegram reaction notifications across a gateway restart (reactionNotifications: own)", () => {
  // --verbose: the debug lines say how each reaction was routed.
  const world = telegramWorld(["--verbose"]);
  const botSays = (text: string) =>
    eventually(
      () => {
        const sent = world.telegram
          .messagesIn(GROUP)
          .find((m) => m.from?.id === world.telegram.bot.id && m.text === text);
        expect(sent).toBeDefined();
        return sent as NonNullable<typeof sent>;
      },
      { timeoutMs: 15_000 },
    );

  it("a reaction to a bot message sent before the restart reaches the next turn; one on a person's message does not", async () => {
    // Before the restart: the bot answers Ann, and Bob writes something of his own (no mention, no turn).
    world.model.script({ text: "Pasta at 7." });
    const question = "@chorus_test_bot what's for dinner?";
    world.telegram.userSends({ chatId: GROUP, from: ANN, text: question, entities: mentionEntities(question) });
    const reply = await botSays("Pasta at 7.");
    const wine = world.telegram.userSends({ chatId: GROUP, from: BOB, text: "I bring wine" });
    await eventually(() => expect(world.telegram.state.pending).toEqual([]), { timeoutMs: 10_000 });
    expect(world.model.requests).toHaveLength(1);

    // A gateway restart: the plugin instance that sent the reply is gone.
    const restarted = await world.restart();

    world.telegram.userReacts(GROUP, reply.message_id, ANN, ["👍"]);
    world.telegram.userReacts(GROUP, wine.message_id, ANN, ["🎉"]);
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
    expect(world.model.requests).toHaveLength(1); // reactions start no turn

    world.model.script({ text: "Noted." });
    const next = "@chorus_test_bot who is coming?";
    world.telegram.userSends({ chatId: GROUP, from: BOB, text: next, entities: mentionEntities(next) });
    await botSays("Noted.");
    const system = systemText(world.model.requests[1]);
    expect(system).toContain(
      `System events since your last reply:\n- Telegram reaction added: 👍 by Ann on msg ${reply.message_id}`,
    );
    expect(system).not.toContain("🎉");
  });
});

describe("Telegram's own example update through the real gateway process", () => {
  const world = telegramWorld();

  it("the documentation's first example (no is_bot, no chat type) starts a turn, and the reply reaches its chat", async () => {
    const chat = DOCS_UPDATE.message.chat.id;
    world.telegram.addChat({ id: chat, type: "private", first_name: "Test" });
    world.model.script({ text: "Hello, Test." });
    world.telegram.enqueueRaw(DOCS_UPDATE);

    await eventually(
      () =>
        expect(
          world.telegram
            .messagesIn(chat)
            .filter((m) => m.from?.id === world.telegram.bot.id)
            .map((m) => m.text),
        ).toEqual(["Hello, Test."]),
      { timeoutMs: 15_000 },
    );
    expect(world.model.requests).toHaveLength(1);
    expect(lastUserText(world.model.requests[0])).toContain("/start");
    await eventually(() => expect(world.telegram.state.pending).toEqual([]), { timeoutMs: 10_000 });
    expect(world.gateway.logs().filter((line) => /cannot read/.test(String(line.msg)))).toEqual([]);
  });
});
