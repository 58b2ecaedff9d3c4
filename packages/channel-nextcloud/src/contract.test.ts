import type { ChannelPlugin } from "@chorus/core";
import { type ChannelContractFixture, closedPort, type InboundMediumSample } from "@chorus/testkit";
import { describeChannelContract } from "@chorus/testkit/vitest";
import { NEXTCLOUD_DEFAULT_UPLOAD_BYTES, nextcloudCapabilities, nextcloudChannel, nextcloudMediaFor } from "./index.js";
import { filesUser, shownOnTalk } from "./media-harness.test-util.js";
import { createFakeTalk, type FakeTalk } from "./testing/index.js";

/** A canary of the length Talk requires of a bot secret (40 to 128 characters); it must never be reported. */
const CANARY = "canary-nextcloud-bot-secret-5d1e7c42a9b3f086";
/** The files user's app password: as secret as the bot's. */
const FILES_CANARY = "canary-nextcloud-app-password-9b1f3e";
const ann = { id: "ann", name: "Ann" };
/** The URL the admin installed the bot with (behind a proxy): Talk derives the bot's actor id from it. */
const INSTALLED_URL = "https://gateway.example.com/hooks/nextcloud/default";
const FILES = { user: filesUser.id, appPassword: FILES_CANARY };

/** What someone shares: a file uploaded to their Talk folder and shared, or a location. */
function share(fake: FakeTalk, sample: InboundMediumSample) {
  if (sample.kind === "location" && sample.location) {
    return fake.userSharesLocation({ token: "team", user: ann, location: sample.location });
  }
  return fake.userSharesFile({
    token: "team",
    user: ann,
    name: sample.filename ?? `${sample.kind}.bin`,
    bytes: sample.bytes ?? new Uint8Array(),
    caption: sample.caption,
  });
}

// The whole channel contract against the fake Talk. Talk does not tell a bot the id of what it
// sent, so the bot reacts to people's messages (createMessage). The webhook URL is registered by
// hand in Talk, so deliveries go to the running instance's hooks URL the suite hands over. The bot
// has a files user, so the files people share can be downloaded (WebDAV on the fake).
function fixture() {
  return async (): Promise<ChannelContractFixture> => {
    const fake = createFakeTalk();
    await fake.start();
    const bot = fake.installBot({ name: "Chorus", secret: CANARY, url: INSTALLED_URL });
    fake.addRoom({ token: "team", name: "Team" });
    fake.setupBot(bot, "team");
    // No Talk folder yet: the first upload creates it.
    fake.addAccount({ id: filesUser.id, displayName: filesUser.name, appPassword: FILES_CANARY });
    fake.addParticipant("team", filesUser.id);
    const unreachable = `http://127.0.0.1:${await closedPort()}`;
    // Short timeouts so a hanging Talk ends a call quickly.
    const config = (baseUrl: string) =>
      fake.config(bot, { baseUrl, webhookUrl: INSTALLED_URL, retries: 1, timeoutMs: 500, files: FILES });
    const hook = (hooksUrl: string) => `${hooksUrl}/hooks/nextcloud/default`;
    const ours = new Set([bot.actorId, `users/${filesUser.id}`]);
    return {
      config: config(fake.url),
      conversation: { id: "team" },
      secrets: [CANARY, FILES_CANARY],
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
      media: {
        sentMessage: (ref) => shownOnTalk(fake, ref.messageId),
        botMessageCount: () => fake.messagesIn("team").filter((m) => ours.has(m.actorId)).length,
        userSendsMedium: async (sample, hooksUrl) => {
          await fake.deliver(hook(hooksUrl), bot, share(fake, sample));
        },
        bytesServed: () => fake.bytesServed,
      },
    };
  };
}

// The plugin as the gateway loads it: link-only media (the bot API uploads nothing), attachments in.
describeChannelContract("Nextcloud Talk channel contract", {
  plugin: nextcloudChannel,
  stepTimeoutMs: 10_000,
  setup: fixture(),
});

/**
 * An account with `files` uploads media (WebDAV + a share with the conversation). The plugin's
 * capabilities are one value for every account, so this run declares what `nextcloudMediaFor`
 * says for the account's config: what a per-account capabilities hook of the gateway would read.
 */
const withFiles: ChannelPlugin<unknown> = {
  ...(nextcloudChannel as ChannelPlugin<unknown>),
  capabilities: {
    ...nextcloudCapabilities,
    media: nextcloudMediaFor({ files: { ...FILES, folder: "Talk", maxUploadBytes: NEXTCLOUD_DEFAULT_UPLOAD_BYTES } }),
  },
};

describeChannelContract("Nextcloud Talk channel contract, with a files user", {
  plugin: withFiles,
  stepTimeoutMs: 10_000,
  setup: fixture(),
});
