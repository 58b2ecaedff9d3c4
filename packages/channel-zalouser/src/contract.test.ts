import { describeChannelContract } from "@chorus/testkit/vitest";
import { zalouserChannel } from "./index.js";
import { ANN, fakeWorld, TEAM } from "./testing/fixture.js";
import { shownKind } from "./testing/index.js";
import { zaloIcon } from "./vocabulary.js";

// The whole channel contract against the fake Zalo, through the real zca-js: every reaction case
// the row "Zalo Personal" (no flags) makes relevant, checked against the icons the fake holds,
// restarts, inbound, faults, the session's cookies and imei as canary secrets, and media in and
// out byte for byte: what the fake's upload endpoints assembled from zca-js's chunks, what its CDN
// served for the channel's downloads.
describeChannelContract("Zalo Personal: the channel contract", {
  plugin: zalouserChannel,
  stepTimeoutMs: 10_000,
  async setup() {
    const world = await fakeWorld();
    const { fake } = world;
    return {
      config: world.config(),
      linkAccount: world.link,
      conversation: { id: TEAM },
      secrets: world.secrets,
      unreachableConfig: world.unreachableConfig,
      botReactions: (ref) => fake.botReactions(ref.messageId),
      addForeignReaction: (ref, emoji) => fake.personReacts(ANN.id, ref.messageId, zaloIcon(emoji) ?? emoji),
      foreignReactions: (ref) => fake.reactionsBy(ref.messageId, ANN.id),
      userSends: async (text) => {
        await fake.personSends({ from: ANN.id, group: TEAM, text });
      },
      redeliverLast: () => fake.redeliverLast(),
      deliverUnparseable: () => fake.deliverUnparseable(),
      fault: (kind) => fake.fault(kind),
      heal: () => fake.heal(),
      close: () => fake.close(),
      media: {
        sentMessage: (ref) => {
          const message = fake.state.messages.get(ref.messageId);
          if (!message) throw new Error(`fake Zalo: the bot sent no message ${ref.messageId}`);
          const { medium } = message;
          return {
            media: medium
              ? [
                  {
                    kind: shownKind(medium),
                    bytes: medium.bytes,
                    filename: medium.filename,
                    ...(medium.caption !== undefined && { caption: medium.caption }),
                  },
                ]
              : [],
            text: message.text,
          };
        },
        botMessageCount: () => fake.botMessages(TEAM).length,
        userSendsMedium: async (sample) => {
          await fake.personSendsMedium({
            from: ANN.id,
            group: TEAM,
            kind: sample.kind === "contact" ? "file" : sample.kind,
            ...(sample.bytes && { bytes: sample.bytes }),
            ...(sample.mime && { mime: sample.mime }),
            ...(sample.filename && { filename: sample.filename }),
            ...(sample.caption && { caption: sample.caption }),
            ...(sample.location && { location: sample.location }),
          });
        },
        bytesServed: () => fake.media.bytesServed,
      },
    };
  },
});
