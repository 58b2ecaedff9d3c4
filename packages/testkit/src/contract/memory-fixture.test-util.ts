import { closedPort, outage } from "../fake-server/index.js";
import { createMemoryPlatform, type MemoryPlatformRules } from "../memory/index.js";
import type { ChannelContractFixture } from "./types.js";

/** The canary token of the memory fixture: it must never be reported. */
export const CANARY = "canary-memory-token-7f3a9c";

/** The memory platform as a whole-channel contract fixture, media hooks included. */
export async function memoryFixture(rules: Partial<MemoryPlatformRules> = {}): Promise<ChannelContractFixture> {
  const platform = createMemoryPlatform({ token: CANARY, rules });
  await platform.start();
  platform.addConversation({ id: "c1", kind: "group", title: "Contract", members: [{ id: "ann", name: "Ann" }] });
  const config = (baseUrl: string) => ({ baseUrl, token: CANARY, pollWaitMs: 200, retries: 1, timeoutMs: 500 });
  const unreachable = `http://127.0.0.1:${await closedPort()}`;
  return {
    config: config(platform.url),
    conversation: { id: "c1" },
    secrets: [CANARY],
    unreachableConfig: () => config(unreachable),
    botReactions: (ref) => platform.botReactions(ref.messageId),
    addForeignReaction: (ref, emoji) => platform.userReacts(ref.messageId, "ann", emoji),
    foreignReactions: (ref) => platform.state.reactionsBy(ref.messageId, "ann"),
    userSends: (text) => {
      platform.userSends({ conversationId: "c1", senderId: "ann", text });
    },
    redeliverLast: () => platform.redeliver(),
    deliverUnparseable: () => platform.deliverRaw({ id: "evt-broken", type: "message", message: { id: 42 } }),
    fault: (kind) => platform.server.inject(outage(kind)),
    heal: () => platform.server.clearFaults(),
    close: () => platform.close(),
    media: {
      sentMessage: (ref) => platform.messageMedia(ref.messageId),
      botMessageCount: () => platform.botMessagesIn("c1").length,
      userSendsMedium: (sample) => {
        const { kind, bytes, mime, filename, caption, location, contact } = sample;
        platform.userSendsMedium({
          conversationId: "c1",
          senderId: "ann",
          kind,
          ...(bytes ? { bytes } : {}),
          ...(mime ? { mime } : {}),
          ...(filename ? { filename } : {}),
          ...(caption ? { caption } : {}),
          ...(location ? { location } : {}),
          ...(contact
            ? { contact: { name: contact.name, ...(contact.phones ? { phones: [...contact.phones] } : {}) } }
            : {}),
        });
      },
      bytesServed: () => platform.bytesServed,
    },
  };
}
