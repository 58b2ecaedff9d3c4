import type { MessageRef } from "@chorus/core";
import { closedPort } from "@chorus/testkit";
import { describeChannelContract } from "@chorus/testkit/vitest";
import { signalChannel } from "./index.js";
import { FakeSignal, shownKind } from "./testing/index.js";

// A canary secret: the suite fails if it shows up in any error, status, event or log line.
const PASSWORD = "canary-signal-proxy-password-7f31c2";

/** The author and timestamp a ref of this channel addresses. */
const target = (ref: MessageRef) => ({ author: String(ref.data?.author), timestamp: Number(ref.data?.timestamp) });

// The whole channel contract: every reaction case of the single-slot flags (checked against the
// reactions the fake daemon holds), restarts, inbound, faults, secrets, escaped errors, and media
// in and out byte for byte.
describeChannelContract("Signal: the channel contract", {
  plugin: signalChannel,
  stepTimeoutMs: 10_000,
  async setup() {
    // Behind a proxy with basic auth, so there is a secret to keep.
    const fake = new FakeSignal({ basicAuth: { username: "chorus", password: PASSWORD } });
    await fake.start();
    const ann = fake.state.addPerson({ number: "+15550002222", name: "Ann" });
    const team = fake.state.addGroup({ name: "Team", members: [ann] });
    // Short timeouts, so a daemon that hangs fails a call quickly instead of holding the suite.
    const config = (httpUrl: string) =>
      fake.config({ httpUrl, retries: 1, timeoutMs: 500, reconnectMinMs: 50, reconnectMaxMs: 400 });
    const unreachable = `http://127.0.0.1:${await closedPort()}`;
    const bot = (ref: MessageRef) => {
      const { author, timestamp } = target(ref);
      return { author: fake.state.person(author) ?? fake.bot, timestamp };
    };
    return {
      config: config(fake.url),
      conversation: { id: team.id },
      secrets: [PASSWORD],
      unreachableConfig: () => config(unreachable),
      botReactions: (ref) => fake.botReactions(target(ref).author, target(ref).timestamp),
      addForeignReaction: (ref, emoji) => {
        fake.people.reacts({ from: ann, target: bot(ref), emoji, group: team });
      },
      foreignReactions: (ref) => fake.state.reactionsBy(ann.uuid, bot(ref).author.uuid, bot(ref).timestamp),
      userSends: (text) => {
        fake.people.sends({ from: ann, group: team, text });
      },
      redeliverLast: () => fake.people.redeliverLast(),
      deliverUnparseable: () => fake.people.deliverUnparseable(),
      fault: (kind) => fake.fault(kind),
      heal: () => fake.heal(),
      close: () => fake.close(),
      // Media: what the daemon decoded from the bot's data: URIs, shown as Signal's clients show
      // each file; Ann's files go into the daemon's attachments directory, her sticker into a pack.
      media: {
        sentMessage: (ref) => {
          const sent = fake.sentTo(team.id).find((m) => m.timestamp === target(ref).timestamp);
          if (!sent) throw new Error(`fake signal-cli: the bot sent no message at ${ref.messageId}`);
          return {
            media: (sent.attachments ?? []).map((file) => ({
              kind: shownKind(file),
              bytes: file.bytes,
              ...(file.filename !== null && { filename: file.filename }),
            })),
            text: sent.text,
          };
        },
        botMessageCount: () => fake.sentTo(team.id).length,
        userSendsMedium: (sample) => {
          const bytes = sample.bytes ?? new Uint8Array();
          if (sample.kind === "sticker") fake.people.sendsSticker({ from: ann, group: team, bytes });
          else {
            const file = {
              bytes,
              contentType: sample.mime ?? "application/octet-stream",
              filename: sample.filename ?? null,
            };
            fake.people.sends({ from: ann, group: team, text: sample.caption ?? null, files: [file] });
          }
        },
        bytesServed: () => fake.state.media.bytesServed,
      },
    };
  },
});
