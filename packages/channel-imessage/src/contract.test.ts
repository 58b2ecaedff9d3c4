import { type ChannelContractFixture, closedPort } from "@chorus/testkit";
import { describeChannelContract } from "@chorus/testkit/vitest";
import { imessageChannel } from "./index.js";
import { createFakeBlueBubbles } from "./testing/index.js";
import { imessageVocabulary } from "./vocabulary.js";

const GROUP = "iMessage;+;chat100200300";
const ANN = "+15550001111";
const CANARY_PASSWORD = "canary-bluebubbles-password-5d1e";
const CANARY_SECRET = "canary-webhook-secret-93ab71c0";

/** The fake BlueBubbles server as a whole-channel contract fixture, with canary secrets. */
async function blueBubblesFixture(): Promise<ChannelContractFixture> {
  const fake = createFakeBlueBubbles({ password: CANARY_PASSWORD });
  await fake.start();
  fake.addChat({ guid: GROUP, displayName: "Team", participants: [ANN, "+15550002222"] });
  // Short timeouts and backoff, so a hung or lost server ends each step quickly.
  const config = (serverUrl: string) => ({
    serverUrl,
    password: CANARY_PASSWORD,
    webhookSecret: CANARY_SECRET,
    retries: 1,
    timeoutMs: 400,
    reconnectMinMs: 20,
    reconnectMaxMs: 200,
  });
  const unreachable = `http://127.0.0.1:${await closedPort()}`;
  return {
    config: config(fake.url),
    conversation: { id: GROUP },
    secrets: [CANARY_PASSWORD, CANARY_SECRET],
    unreachableConfig: () => config(unreachable),
    createMessage: (instance, index) => {
      const { guid } = fake.userSends({ chatGuid: GROUP, from: ANN, text: `contract target ${index}` });
      return instance.resolveMessageRef({ id: GROUP }, guid);
    },
    botReactions: (ref) => fake.botTapbacks(ref.messageId),
    addForeignReaction: (ref, emoji) => {
      fake.userTapback({ messageGuid: ref.messageId, from: ANN, reaction: imessageVocabulary.lookup(emoji) ?? emoji });
    },
    foreignReactions: (ref) => fake.tapbacksBy(ref.messageId, ANN),
    userSends: async (text) => {
      await fake.deliver(fake.userSends({ chatGuid: GROUP, from: ANN, text }));
    },
    redeliverLast: async () => {
      await fake.redeliverLast();
    },
    deliverUnparseable: async () => {
      await fake.deliverUnparseable();
    },
    forgeWebhook: (hooksUrl, text) => fake.forgeWebhook(`${hooksUrl}/hooks/imessage/default`, text),
    fault: (kind) => fake.outage(kind),
    heal: () => fake.heal(),
    close: () => fake.close(),
    // Media: the files the server keeps for the bot's message (shown as Messages shows them: an
    // audio message by its flag); Ann's files as her iPhone sends them, an audio message as the
    // CAF recording it is, a sticker placed on the chat's last message.
    media: {
      sentMessage: (ref) => {
        const shown = fake.shown(ref.messageId);
        if (!shown) throw new Error(`fake BlueBubbles: the bot sent no message ${ref.messageId}`);
        return {
          media: shown.files.map((file) => ({ kind: file.kind, bytes: file.bytes, filename: file.filename })),
          ...(shown.text !== "" ? { text: shown.text } : {}),
        };
      },
      botMessageCount: () =>
        fake.messagesIn(GROUP).filter((m) => m.isFromMe && m.associatedMessageGuid === undefined).length,
      userSendsMedium: async (sample) => {
        const bytes = sample.bytes ?? new Uint8Array();
        const name = sample.filename ?? sample.kind;
        if (sample.kind === "sticker") {
          const on =
            fake.messagesIn(GROUP).at(-1) ?? fake.state.addMessage({ chatGuid: GROUP, text: "hi", isFromMe: true });
          const file = { bytes, transferName: name, mimeType: sample.mime ?? null };
          await fake.deliver(fake.userSendsSticker({ messageGuid: on.guid, from: ANN, file }));
          return;
        }
        const file =
          sample.kind === "voice"
            ? { bytes, transferName: "Audio Message.caf", mimeType: "audio/x-caf" }
            : { bytes, transferName: name, mimeType: sample.mime ?? null };
        await fake.deliver(fake.userSendsMedia({ chatGuid: GROUP, from: ANN, text: sample.caption, files: [file] }));
      },
      bytesServed: () => fake.state.bytesServed,
    },
  };
}

// The whole channel contract against the tapbacks, webhooks and faults of the fake BlueBubbles server.
describeChannelContract("iMessage: the whole channel contract", {
  plugin: imessageChannel,
  setup: blueBubblesFixture,
  stepTimeoutMs: 10_000,
});
