import { closedPort } from "@chorus/testkit";
import { describeChannelContract } from "@chorus/testkit/vitest";
import { nextcloudChannel } from "./index.js";
import { createFakeTalk } from "./testing/index.js";

/** A canary of the length Talk requires of a bot secret (40 to 128 characters); it must never be reported. */
const CANARY = "canary-nextcloud-bot-secret-5d1e7c42a9b3f086";
const ann = { id: "ann", name: "Ann" };
/** The URL the admin installed the bot with (behind a proxy): Talk derives the bot's actor id from it. */
const INSTALLED_URL = "https://gateway.example.com/hooks/nextcloud/default";

// The whole channel contract against the fake Talk. Talk does not tell a bot the id of what it
// sent, so the bot reacts to people's messages (createMessage). The webhook URL is registered by
// hand in Talk, so deliveries go to the running instance's hooks URL the suite hands over.
describeChannelContract("Nextcloud Talk channel contract", {
  plugin: nextcloudChannel,
  stepTimeoutMs: 10_000,
  async setup() {
    const fake = createFakeTalk();
    await fake.start();
    const bot = fake.installBot({ name: "Chorus", secret: CANARY, url: INSTALLED_URL });
    fake.addRoom({ token: "team", name: "Team" });
    fake.setupBot(bot, "team");
    const unreachable = `http://127.0.0.1:${await closedPort()}`;
    // Short timeouts so a hanging Talk ends a call quickly.
    const config = (baseUrl: string) =>
      fake.config(bot, { baseUrl, webhookUrl: INSTALLED_URL, retries: 1, timeoutMs: 500 });
    const hook = (hooksUrl: string) => `${hooksUrl}/hooks/nextcloud/default`;
    return {
      config: config(fake.url),
      conversation: { id: "team" },
      secrets: [CANARY],
      unreachableConfig: () => config(unreachable),
      createMessage: (instance, index) => {
        const created = fake.userSends({ token: "team", user: ann, message: `contract target ${index}` });
        return instance.resolveMessageRef({ id: "team" }, created.object.id);
      },
      botReactions: (ref) => fake.botReactions(Number(ref.messageId), bot),
      addForeignReaction: (ref, emoji) => {
        fake.userReacts(Number(ref.messageId), ann, emoji);
      },
      foreignReactions: (ref) => fake.reactionsBy(Number(ref.messageId), "users/ann"),
      userSends: async (text, hooksUrl) => {
        await fake.deliver(hook(hooksUrl), bot, fake.userSends({ token: "team", user: ann, message: text }));
      },
      redeliverLast: async (hooksUrl) => {
        await fake.redeliverLast(hook(hooksUrl));
      },
      deliverUnparseable: async (hooksUrl) => {
        await fake.deliver(hook(hooksUrl), bot, fake.unreadableEvent("team", ann));
      },
      forgeWebhook: async (hooksUrl, text) => {
        const body = fake.userSends({ token: "team", user: ann, message: text });
        return (await fake.deliver(hook(hooksUrl), bot, body, { secret: "f".repeat(48) })).status;
      },
      fault: (kind) => fake.outage(kind),
      heal: () => fake.heal(),
      close: () => fake.close(),
    };
  },
});
