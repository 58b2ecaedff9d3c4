import type { MediaKind } from "@chorus/core";
import { closedPort } from "@chorus/testkit";
import { describeChannelContract } from "@chorus/testkit/vitest";
import { feishuChannel } from "./index.js";
import { createFakeFeishu } from "./testing/index.js";
import { feishuVocabulary } from "./vocabulary.js";
import { webhookPath } from "./webhook.js";

// Canary secrets: the suite fails if any shows up in any error, status, event or log line.
const APP_SECRET = "canary-feishu-app-secret-7c41d2";
const VERIFICATION_TOKEN = "canary-feishu-verification-token-19be";

/** The contract's emoji are unicode; people on Feishu react with emoji_types. */
const typeOf = (emoji: string) => feishuVocabulary.lookup(emoji) ?? emoji;

// The whole channel contract, once per transport: every reaction case the flags make relevant
// (checked against the reactions the fake Feishu really holds), restarts, inbound over the SDK's
// WebSocket or signed webhooks, a commit that fails, faults, secrets and escaped errors, and media
// (checked against the bytes the fake Feishu holds and serves).
for (const delivery of ["websocket", "webhook"] as const) {
  const transport = delivery === "websocket" ? "long connection" : "webhook";
  describeChannelContract(`Feishu: the channel contract (${transport})`, {
    plugin: feishuChannel,
    stepTimeoutMs: 10_000,
    async setup() {
      // Feishu's own intervals are minutes; the fake tells the SDK to ping and reconnect quickly, waits
      // 300 ms (not 3 s) for an answer, and pushes an unacknowledged event again after 20 ms, not 15 s.
      const fake = createFakeFeishu({
        delivery,
        appSecret: APP_SECRET,
        verificationToken: VERIFICATION_TOKEN,
        clientConfig: { PingInterval: 1, ReconnectInterval: 0.1, ReconnectNonce: 0 },
        ackTimeoutMs: 300,
        retryDelaysMs: [20, 50, 100, 200],
      });
      await fake.start();
      const ann = fake.addUser("Ann");
      const chat = fake.addChat({ name: "Team", members: [ann] });
      // Short timeouts, so a platform that hangs fails a call quickly instead of holding the suite.
      const config = (domain: string) => fake.config({ domain, retries: 1, timeoutMs: 1_000, reconnectMinMs: 50 });
      const unreachable = `http://127.0.0.1:${await closedPort()}`;
      // Webhook mode: the request URL is pasted into the developer console by hand; here it is the instance's route.
      const requestUrl = (hooksUrl: string) => `${hooksUrl}/hooks/feishu${webhookPath("default")}`;
      const pointAt = (hooksUrl: string) => {
        if (delivery === "webhook") fake.webhooks.url = requestUrl(hooksUrl);
      };
      return {
        config: config(fake.url),
        conversation: { id: chat.chat_id },
        secrets: [APP_SECRET, VERIFICATION_TOKEN],
        unreachableConfig: () => config(unreachable),
        botReactions: (ref) => fake.botReactions(ref.messageId),
        addForeignReaction: (ref, emoji) => fake.userReacts(ref.messageId, ann, typeOf(emoji)),
        foreignReactions: (ref) => fake.reactionsBy(ref.messageId, ann.open_id),
        userSends: async (text, hooksUrl) => {
          pointAt(hooksUrl);
          await fake.userSends({ chatId: chat.chat_id, from: ann, text });
        },
        redeliverLast: async (hooksUrl) => {
          pointAt(hooksUrl);
          await fake.redeliverLast();
        },
        deliverUnparseable: async (hooksUrl) => {
          pointAt(hooksUrl);
          await fake.deliverUnparseable();
        },
        ...(delivery === "webhook" && {
          forgeWebhook: (hooksUrl: string, text: string) => fake.forge(text, requestUrl(hooksUrl)),
        }),
        fault: (kind) => fake.fault(kind),
        heal: () => fake.heal(),
        close: () => fake.close(),
        // What the media cases see of Feishu: the bot's messages with the bytes it uploaded, people sending media.
        media: {
          sentMessage: (ref) => fake.media.messageMedia(ref.messageId),
          botMessageCount: () => fake.messagesIn(chat.chat_id).filter((m) => m.sender.sender_type === "app").length,
          userSendsMedium: async ({ kind, bytes, mime, filename, location, caption }, hooksUrl) => {
            pointAt(hooksUrl);
            await fake.media.userSends({
              chatId: chat.chat_id,
              from: ann,
              // The suite sends only the kinds the flags receive, which are no contact cards.
              kind: kind as MediaKind,
              ...(bytes ? { bytes } : {}),
              ...(mime ? { mime } : {}),
              ...(filename ? { filename } : {}),
              ...(location ? { location } : {}),
              ...(caption ? { caption } : {}),
            });
          },
          bytesServed: () => fake.media.bytesServed,
        },
      };
    },
  });
}
