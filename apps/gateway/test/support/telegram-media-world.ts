import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFakeTelegram, type FakeTelegram } from "@chorus/channel-telegram/testing";
import { waitFor } from "@chorus/testkit";
import {
  createFakeOpenAI,
  createFakeTranscription,
  type FakeOpenAI,
  type FakeTranscription,
  fakeModelConfig,
} from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "./gateway-process.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-telegram", import.meta.url));
const MB = 1024 * 1024;

/** A Telegram user and message, as the fake holds them. */
export type TelegramUser = Parameters<FakeTelegram["userSends"]>[0]["from"];
export type TelegramMessage = ReturnType<FakeTelegram["userSends"]>;

/** Ann may talk to the agent in the group (`groupAllowFrom`); Bob may not. */
export const ANN: TelegramUser = { id: 501, is_bot: false, first_name: "Ann" };
export const BOB: TelegramUser = { id: 502, is_bot: false, first_name: "Bob" };
export const GROUP = -1002000000777;

/**
 * A fake Telegram with Ann's direct chat and a group, a fake OpenAI-compatible model that takes
 * images, the fake transcription endpoint, and the real `chorus start` against them: DMs open,
 * the group open to Ann only, `media.maxBytes` 64 MB and `media.allowHosts` as given.
 */
export interface TelegramMediaWorld {
  readonly telegram: FakeTelegram;
  readonly model: FakeOpenAI;
  readonly speech: FakeTranscription;
  readonly gateway: GatewayProcess;
  /** The gateway's home; `media/outbox` in it is `media.dir`. */
  readonly home: string;
  /** Starts `chorus start` on the same home (after a stop or a kill) and waits for its first poll. */
  start(): Promise<GatewayProcess>;
  /** The bot's messages in a chat, oldest first. */
  botMessages(chatId: number): TelegramMessage[];
  close(): Promise<void>;
}

/** Starts the fakes and the gateway; `allowHosts` are `host:port` pairs a `url` item may reach. */
export async function startTelegramMediaWorld(options: { allowHosts?: string[] } = {}): Promise<TelegramMediaWorld> {
  const telegram = createFakeTelegram();
  await telegram.start();
  telegram.addChat({ id: ANN.id, type: "private", first_name: "Ann" });
  telegram.addChat({ id: GROUP, type: "supergroup", title: "Family" });
  const model = await createFakeOpenAI({ apiKey: "sk-test" });
  const speech = await createFakeTranscription({ apiKey: "sk-speech" });
  const home = await mkdtemp(join(tmpdir(), "chorus-media-telegram-"));
  await mkdir(join(home, "media", "outbox"), { recursive: true });
  const config = {
    plugins: { load: [PLUGIN] },
    channels: {
      telegram: {
        ...telegram.config(),
        dmPolicy: "open",
        groupPolicy: "allowlist",
        groupAllowFrom: [String(ANN.id)],
        reactionLevel: "off",
      },
    },
    agents: {
      defaults: {
        transcription: { provider: "openai-compatible", baseURL: speech.url, apiKey: "sk-speech", model: "whisper-1" },
      },
      list: [{ id: "main", name: "Chorus", model: fakeModelConfig(model, { apiKey: "sk-test", vision: true }) }],
    },
    media: { maxBytes: 64 * MB, allowHosts: options.allowHosts ?? [] },
  };
  const polls = () => telegram.server.requestsTo("POST", /\/getUpdates$/).length;
  let gateway: GatewayProcess | undefined;
  const start = async () => {
    const before = polls();
    gateway = await startGatewayProcess({ home, config });
    await waitFor(() => polls() > before, { timeoutMs: 15_000, message: "the gateway's first poll" });
    return gateway;
  };
  await start();
  return {
    telegram,
    model,
    speech,
    home,
    get gateway() {
      return gateway as GatewayProcess;
    },
    start,
    botMessages: (chatId) => telegram.botMessages(chatId).sort((a, b) => a.message_id - b.message_id),
    async close() {
      await gateway?.stop("SIGKILL");
      await Promise.all([telegram.close(), model.close(), speech.close()]);
      await removeHome(home);
    },
  };
}
