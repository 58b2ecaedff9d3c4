import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EscapeWatch, type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { directStanza, GROUP_ID, groupStanza, ME_ID, ME_LID, PEER_ID } from "../fixtures/baileys-stanzas.js";
import { messageEvent, removeStateDir, WIRE_TEST_TIMEOUT, wireConfig } from "../fixtures/wire-session.js";
import { createWhatsAppChannel } from "../index.js";
import { createFakeWhatsApp, type FakeWhatsApp, saveLinkedCreds } from "../testing/index.js";

// Baileys' own test stanzas, delivered by the fake WhatsApp to real Baileys and the running plugin.
let fake: FakeWhatsApp;
let channel: RunningChannel;
let stateDir: string;
let watch: EscapeWatch;

async function open(): Promise<void> {
  watch = new EscapeWatch().start();
  const phone = (jid: string) => jid.split("@")[0] as string;
  fake = createFakeWhatsApp({ botPhone: phone(ME_ID), botLid: phone(ME_LID), botName: "Chorus" });
  await fake.start();
  fake.addPerson({ phone: phone(PEER_ID), name: "Peer" });
  fake.addGroup({ id: GROUP_ID, subject: "Group", participants: [phone(PEER_ID)], addressingMode: "pn" });
  stateDir = await mkdtemp(join(tmpdir(), "chorus-wa-baileys-"));
  await saveLinkedCreds(stateDir, fake.linkedCreds());
  channel = await startChannel(createWhatsAppChannel(), { config: wireConfig(fake), stateDir });
}

afterEach(async () => {
  watch.stop();
  await channel?.stop();
  await fake?.close();
  await removeStateDir(stateDir);
  expect(watch.describe()).toBe("");
});

describe("WhatsApp inbound: Baileys' own test stanzas (no push name, no addressing extras)", () => {
  it(
    "a 1:1 message with only id, from and t is a direct message from its sender",
    async () => {
      await open();
      fake.deliverStanza(directStanza);
      const event = await messageEvent(channel, "MSG_1");
      // No push name (`notify`): the sender is known by number, without a name.
      expect(event).toMatchObject({
        type: "message",
        eventId: `wa:${PEER_ID}:MSG_1`,
        conversation: { id: PEER_ID, kind: "direct" },
        sender: { id: PEER_ID, e164: "+5511888888888" },
        text: "ordinary message",
        mentions: { bot: false, others: [] },
        timestamp: 1_700_000_000_000,
      });
      expect(event.sender).not.toHaveProperty("name");
      expect(channel.logs.at("warn").filter((r) => r.message.startsWith("whatsapp:"))).toEqual([]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a group message whose participant is a phone number and that names no addressing mode is a group message",
    async () => {
      await open();
      fake.deliverStanza(groupStanza);
      const event = await messageEvent(channel, "MSG_G");
      expect(event).toMatchObject({
        type: "message",
        eventId: `wa:${GROUP_ID}:MSG_G`,
        conversation: { id: GROUP_ID, kind: "group", title: "Group" },
        sender: { id: PEER_ID, e164: "+5511888888888" },
        text: "ordinary message",
        ref: { messageId: "MSG_G", data: { participant: PEER_ID } },
        timestamp: 1_700_000_000_000,
      });
      expect(channel.logs.at("warn").filter((r) => r.message.startsWith("whatsapp:"))).toEqual([]);
    },
    WIRE_TEST_TIMEOUT,
  );
});
