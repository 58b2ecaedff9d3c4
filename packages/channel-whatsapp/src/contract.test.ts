import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "@chorus/testkit";
import { describeReactionContract } from "@chorus/testkit/vitest";
import { vi } from "vitest";
import { ANN, BOB, BOT } from "./fixtures/wire-messages.js";
import { PATIENCE, removeStateDir, WIRE_TEST_TIMEOUT, wireConfig } from "./fixtures/wire-session.js";
import { whatsappChannel } from "./index.js";
import { createFakeWhatsApp, saveLinkedCreds } from "./testing/index.js";

// Real crypto on a small shared machine: the suite's cases get the wire tests' patience.
vi.setConfig({ testTimeout: WIRE_TEST_TIMEOUT, hookTimeout: WIRE_TEST_TIMEOUT });

// Every DESIGN §2.2 case the WhatsApp flags (clearAll, singleSlot) make relevant, checked
// against the reactions the fake WhatsApp holds, through the real Baileys. The bot reacts to
// messages people post in a LID-addressed group, so each key must carry the author.
describeReactionContract("WhatsApp reaction contract", {
  plugin: whatsappChannel,
  async setup() {
    const fake = createFakeWhatsApp({ botPhone: BOT.phone, botLid: BOT.lid, botName: BOT.name });
    await fake.start();
    const ann = fake.addPerson(ANN);
    const bob = fake.addPerson(BOB);
    const group = fake.addGroup({ subject: "Contract", participants: [ann.phone, bob.phone] }).id;
    const authDir = join(await mkdtemp(join(tmpdir(), "chorus-wa-contract-")), "auth");
    await saveLinkedCreds(authDir, fake.linkedCreds(), { authDir });
    return {
      config: wireConfig(fake, { authDir }),
      conversation: { id: group },
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
      async close() {
        await fake.close();
        await removeStateDir(join(authDir, ".."));
      },
    };
  },
});
