import { fileURLToPath } from "node:url";
import { createFakeTelegram, type FakeTelegram } from "@chorus/channel-telegram/testing";
import { createFakeOpenAI, type FakeOpenAI, fakeModelConfig } from "../../src/testing/index.js";
import { type GatewayProcess, startGatewayProcess } from "./gateway-process.js";

const TELEGRAM = fileURLToPath(new URL("../../../../packages/channel-telegram", import.meta.url));

type TelegramUser = Parameters<FakeTelegram["userSends"]>[0]["from"];

/** A gateway process on a fake Telegram, and the fake model it answers with. */
export interface OpenGroupsGateway {
  readonly telegram: FakeTelegram;
  readonly model: FakeOpenAI;
  readonly gateway: GatewayProcess;
  /** Kills the gateway, then closes the model and Telegram. */
  close(): Promise<void>;
}

/**
 * A fake Telegram with the supergroup `group`, a fake model that answers "noted", and a gateway
 * process where every group is open and answered without a mention (no reactions). `home` and
 * `config` go to the gateway: `config` is added to the gateway's config (`state`, say).
 */
export async function startOpenGroupsGateway(options: {
  group: { id: number; title: string };
  home?: string;
  config?: Record<string, unknown>;
}): Promise<OpenGroupsGateway> {
  const telegram = createFakeTelegram();
  let model: FakeOpenAI | undefined;
  try {
    await telegram.start();
    telegram.addChat({ id: options.group.id, type: "supergroup", title: options.group.title });
    model = await createFakeOpenAI({ apiKey: "sk-test", defaultText: "noted" });
    const gateway = await startGatewayProcess({
      home: options.home,
      config: { ...openGroupsConfig(telegram, model), ...options.config },
    });
    const started = model;
    return {
      telegram,
      model,
      gateway,
      async close() {
        await gateway.stop("SIGKILL");
        await started.close();
        await telegram.close();
      },
    };
  } catch (error) {
    await model?.close();
    await telegram.close();
    throw error;
  }
}

/** Telegram on `telegram` (quick polls and reconnects), every group open without mentions or reactions; agent main on `model`. */
function openGroupsConfig(telegram: FakeTelegram, model: FakeOpenAI): Record<string, unknown> {
  return {
    plugins: { load: [TELEGRAM] },
    channels: {
      telegram: {
        ...telegram.config({ pollTimeoutMs: 1_000, reconnectMinMs: 100, reconnectMaxMs: 500 }),
        groupPolicy: "open",
        groups: { "*": { requireMention: false } },
        reactionLevel: "off",
      },
    },
    agents: { list: [{ id: "main", name: "Chorus", model: fakeModelConfig(model, { apiKey: "sk-test" }) }] },
  };
}

/** Numbered messages from `from` in `group` (`message <n>`), and the bot's answers to them. */
export function groupMessages(telegram: FakeTelegram, group: number, from: TelegramUser) {
  const sent: number[] = [];
  const answered = () => telegram.messagesIn(group).filter((m) => m.from?.id === telegram.bot.id);
  return {
    /** The ids of the messages sent so far. */
    sent,
    send: (n: number) => sent.push(telegram.userSends({ chatId: group, from, text: `message ${n}` }).message_id),
    /** The bot's messages in the group. */
    answered,
    /** How many of the bot's messages reply to message `id`. */
    answersTo: (id: number) => answered().filter((m) => m.reply_to_message?.message_id === id).length,
  };
}
