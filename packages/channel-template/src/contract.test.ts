import { createServer } from "node:net";
import { describeChannelContract } from "@chorus/testkit/vitest";
import { acmeChannel } from "./index.js";
import { acmeVocabulary } from "./reactions.js";
import { createFakeAcme } from "./testing/index.js";
import type { AcmeFile } from "./wire.js";

// Canary secrets: the suite fails if either shows up in any error, status, event or log line.
const TOKEN = "canary-acme-token-5d1e83";
const WEBHOOK_SECRET = "canary-acme-webhook-secret-a94f02";

/** A loopback port where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The contract's emoji are unicode; people on Acme react with Acme's names. */
const nameOf = (emoji: string) => acmeVocabulary.lookup(emoji) ?? emoji;

// The whole channel contract: every reaction case the flags make relevant (checked against the
// reactions the fake Acme really holds), restarts, inbound, media (checked against the bytes the
// fake Acme really holds), faults, secrets and escaped errors.
describeChannelContract("Acme Chat: the channel contract", {
  plugin: acmeChannel,
  stepTimeoutMs: 10_000,
  async setup() {
    // Acme posts again a delivery not answered 2xx: after 50 ms here rather than its real 10 s.
    const fake = createFakeAcme({ token: TOKEN, webhookSecret: WEBHOOK_SECRET, retryDelaysMs: [50, 200, 1_000] });
    await fake.start();
    const ann = { id: "u_ann", name: "Ann" };
    fake.addConversation({ id: "c_team", type: "group", name: "Team", members: [fake.bot, ann] });
    // Short timeouts, so a platform that hangs fails a call quickly instead of holding the suite.
    const config = (baseUrl: string) => fake.config({ baseUrl, retries: 1, timeoutMs: 500 });
    const unreachable = `http://127.0.0.1:${await closedPort()}`;
    return {
      config: config(fake.url),
      conversation: { id: "c_team" },
      secrets: [TOKEN, WEBHOOK_SECRET],
      unreachableConfig: () => config(unreachable),
      botReactions: (ref) => fake.botReactions(ref.messageId),
      addForeignReaction: (ref, emoji) => fake.userReacts(ref.messageId, "u_ann", nameOf(emoji)),
      foreignReactions: (ref) => fake.reactionsBy(ref.messageId, "u_ann"),
      userSends: async (text) => {
        await fake.userSends({ conversationId: "c_team", author: "u_ann", text });
      },
      redeliverLast: async () => {
        await fake.redeliverLast();
      },
      deliverUnparseable: async () => {
        await fake.deliverUnparseable();
      },
      forgeWebhook: (_hooksUrl, text) => fake.forge(text),
      fault: (kind) => fake.fault(kind),
      heal: () => fake.heal(),
      close: () => fake.close(),
      // What the media cases see of Acme: the bot's messages with their bytes, and people sending files.
      media: {
        sentMessage: (ref) => fake.messageMedia(ref.messageId),
        botMessageCount: () => fake.messagesIn("c_team").filter((m) => m.author.id === fake.bot.id).length,
        userSendsMedium: async ({ kind, bytes, mime, filename, location, caption }) => {
          await fake.userSends({
            conversationId: "c_team",
            author: "u_ann",
            text: caption ?? "",
            // The suite sends only the kinds Acme's flags receive, which are Acme's own file kinds.
            ...(bytes && {
              file: { kind: kind as AcmeFile["kind"], name: filename ?? "file", mimeType: mime ?? "", bytes },
            }),
            ...(location && { location: { lat: location.latitude, lng: location.longitude } }),
          });
        },
        bytesServed: () => fake.files.bytesServed,
      },
    };
  },
});
