import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ChannelContractFixture, closedPort, eventually, type PlatformMessageMedia } from "@chorus/testkit";
import { describeChannelContract } from "@chorus/testkit/vitest";
import type { AuthenticationCreds } from "@whiskeysockets/baileys";
import { ANN, BOB, BOT } from "./fixtures/wire-messages.js";
import { PATIENCE, removeStateDir, wireConfig } from "./fixtures/wire-session.js";
import { whatsappChannel } from "./index.js";
import { createFakeWhatsApp, type FakeWhatsApp, saveLinkedCreds } from "./testing/index.js";

/** Short enough that a hung or closed WhatsApp fails a step in seconds; long enough for real crypto. */
const SHORT = { connectTimeoutMs: 2_000, ackTimeoutMs: 3_000, reconnectMinMs: 50, reconnectMaxMs: 500, retries: 1 };

/**
 * The canary secrets. WhatsApp's config holds none (`secretKeys` is empty); the secrets are the
 * linked device's own keys, which the plugin reads from the auth directory. Written independently
 * of the plugin's own list, so a redactor that forgot one fails here.
 */
function deviceSecrets(creds: AuthenticationCreds): string[] {
  const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
  return [
    creds.advSecretKey,
    base64(creds.noiseKey.private),
    base64(creds.signedIdentityKey.private),
    base64(creds.signedPreKey.keyPair.private),
  ];
}

/**
 * The fake WhatsApp as a whole-channel contract fixture. The bot reacts to messages people post
 * in a LID-addressed group, so each key must carry the author; people write there too.
 */
async function whatsappFixture(): Promise<ChannelContractFixture> {
  const fake = createFakeWhatsApp({ botPhone: BOT.phone, botLid: BOT.lid, botName: BOT.name });
  await fake.start();
  const ann = fake.addPerson(ANN);
  const bob = fake.addPerson(BOB);
  const group = fake.addGroup({ subject: "Contract", participants: [ann.phone, bob.phone] }).id;
  const root = await mkdtemp(join(tmpdir(), "chorus-wa-contract-"));
  const creds = fake.linkedCreds();
  const authDir = join(root, "auth");
  await saveLinkedCreds(root, creds, { authDir });
  // The unreachable probe gets a copy: it must never touch the running instance's keys.
  const probeAuthDir = join(root, "probe-auth");
  await saveLinkedCreds(root, creds, { authDir: probeAuthDir });
  const unreachable = `ws://127.0.0.1:${await closedPort()}/ws/chat`;
  return {
    config: wireConfig(fake, { authDir, ...SHORT }),
    conversation: { id: group },
    // The media host's upload auth too: the plugin learns it from media_conn and must never report it.
    secrets: [...deviceSecrets(creds), fake.mediaAuth],
    unreachableConfig: () => ({ waWebSocketUrl: unreachable, authDir: probeAuthDir, ...SHORT }),
    async createMessage(instance, index) {
      const key = fake.personSends({ from: ann.phone, chat: group, text: `contract suite target ${index}` });
      return eventually(() => instance.resolveMessageRef({ id: group }, key.id), PATIENCE);
    },
    botReactions: (ref) => {
      const emoji = fake.botReaction(group, ref.messageId);
      return emoji === undefined ? [] : [emoji];
    },
    addForeignReaction: (ref, emoji) => {
      fake.personReacts({ from: bob.phone, chat: group, target: ref.messageId, emoji });
    },
    foreignReactions: (ref) => {
      const emoji = fake.reactionsOn(group, ref.messageId)[bob.jid];
      return emoji === undefined ? [] : [emoji];
    },
    userSends: (text) => {
      fake.personSends({ from: ann.phone, chat: group, text });
    },
    // The same stanza again, as WhatsApp sends it when the device's receipt was lost.
    redeliverLast: () => fake.redeliverLast(),
    // A message whose content ends in bytes that are no protobuf: Baileys cannot decode it.
    deliverUnparseable: () => {
      fake.personSendsUnreadable({ from: ann.phone, chat: group });
    },
    fault: (kind) => fake.fault(kind),
    heal: () => fake.heal(),
    media: {
      sentMessage: (ref) => shownInGroup(fake, group, ref.messageId),
      botMessageCount: () => fake.botMessages(group).length,
      // Ann's phone encrypts the medium and uploads it to the media host, then sends the message.
      userSendsMedium: (sample) => {
        const { kind, bytes, mime, filename, caption, location, contact } = sample;
        fake.personSendsMedium({
          from: ann.phone,
          chat: group,
          kind,
          ...(bytes ? { bytes } : {}),
          ...(mime ? { mime } : {}),
          ...(filename ? { filename } : {}),
          ...(caption ? { caption } : {}),
          ...(location ? { location } : {}),
          ...(contact ? { contact } : {}),
        });
      },
      bytesServed: () => fake.mediaBytesServed,
    },
    async close() {
      await fake.close();
      await removeStateDir(root);
    },
  };
}

/** The bot's message in the group as its members' phones show it: the medium decrypted from the media host, a pin, its text. */
function shownInGroup(fake: FakeWhatsApp, group: string, id: string): PlatformMessageMedia {
  const message = fake.botMessages(group).find((sent) => sent.id === id);
  if (!message) return { media: [] };
  const medium = fake.mediumOf(message);
  const pin = message.message.locationMessage;
  return {
    media: medium
      ? [
          {
            kind: medium.kind,
            bytes: medium.bytes,
            ...(medium.fileName ? { filename: medium.fileName } : {}),
            ...(medium.caption ? { caption: medium.caption } : {}),
          },
        ]
      : [],
    ...(pin
      ? { location: { latitude: pin.degreesLatitude ?? Number.NaN, longitude: pin.degreesLongitude ?? Number.NaN } }
      : {}),
    ...(message.text !== undefined && !medium ? { text: message.text } : {}),
  };
}

// Real crypto on a small shared machine: each step may take a while.
describeChannelContract("WhatsApp: the whole channel contract", {
  plugin: whatsappChannel,
  setup: whatsappFixture,
  stepTimeoutMs: 30_000,
});
