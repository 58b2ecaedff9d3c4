import type { InboundEvent } from "@chorus/core";
import { EscapeWatch, waitFor } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { ANN, BOB } from "./fixtures/wire-messages.js";
import {
  messageEvent,
  messageEvents,
  openWireSession,
  PATIENCE,
  WIRE_TEST_TIMEOUT,
  type WireSession,
} from "./fixtures/wire-session.js";

// Real Baileys against the fake WhatsApp; the host (testkit) fails commits on request.
let s: WireSession;
let watch: EscapeWatch;
afterEach(async () => {
  watch.stop();
  const { problems } = s.fake;
  await s.close();
  expect(problems).toEqual([]);
  expect(watch.describe()).toBe("");
});

const open = async (config: Record<string, unknown> = {}) => {
  watch = new EscapeWatch().start();
  s = await openWireSession({ config });
};
const saying =
  (text: string) =>
  (event: InboundEvent): boolean =>
    event.type === "message" && event.text === text;
/** The receipts the bot's device sent for message `id`: Baileys' delivery receipt, the plugin's read receipt. */
const receiptsOf = (id: string) => s.fake.stanzas({ tag: "receipt" }).filter((receipt) => receipt.attrs.id === id);
const readReceiptsOf = (id: string) => receiptsOf(id).filter((receipt) => receipt.attrs.type === "read");

describe("WhatsApp receive: what the plugin acknowledges waits for the commit", () => {
  it(
    "a message whose commit fails is kept and emitted again until committed, once; its read receipt goes out only then",
    async () => {
      await open({ sendReadReceipts: true });
      s.channel.refuseCommit(saying("kept until committed"), 2);
      const kept = s.fake.personSends({ from: ANN.phone, text: "kept until committed" });
      const next = s.fake.personSends({ from: BOB.phone, text: "not held up" });
      await waitFor(() => s.channel.refused.length === 2, PATIENCE);
      // Baileys confirmed delivery to WhatsApp before the plugin saw the message (it cannot be held back:
      // "inactive" is its delivery receipt while the device is not marked online)…
      expect(receiptsOf(kept.id).map((receipt) => receipt.attrs.type)).toEqual(["inactive"]);
      // …but the read receipt, the plugin's, waits: the commit failed twice.
      expect(readReceiptsOf(kept.id)).toEqual([]);
      await messageEvent(s.channel, kept.id);
      await waitFor(() => readReceiptsOf(kept.id).length > 0, PATIENCE);
      expect(readReceiptsOf(kept.id)).toHaveLength(1);
      expect(messageEvents(s.channel).map((event) => event.ref.messageId)).toEqual([next.id, kept.id]);
      expect(s.channel.duplicates).toEqual([]);
      const warnings = s.channel.logs.at("warn").map((record) => record.message);
      expect(warnings).toContain(
        "whatsapp: the gateway could not commit an event; it is kept and emitted again until it is",
      );
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a message the plugin cannot read: a warning naming it, nothing kept, no read receipt; the next one arrives",
    async () => {
      await open({ sendReadReceipts: true });
      const damaged = s.fake.personSendsUnreadable({ from: ANN.phone, chat: s.team.id });
      const after = s.fake.personSends({ from: BOB.phone, text: "after the damaged one" });
      await messageEvent(s.channel, after.id);
      await waitFor(() => readReceiptsOf(after.id).length > 0, PATIENCE);
      // Baileys' own warning ("failed to decrypt message") aside, the plugin's one comes from the receiver.
      const warnings = s.channel.logs
        .at("warn")
        .map((record) => record.message)
        .filter((message) => message.startsWith("whatsapp:"));
      expect(warnings).toEqual([
        `whatsapp: skipped a delivery it cannot read: message ${damaged.id} from ${s.ann.lidJid} in ${s.team.id}: invalid wire type 7 at offset 40`,
      ]);
      expect(s.channel.refused).toEqual([]);
      // Baileys answered WhatsApp itself (a retry receipt asking for the message again); the plugin marks nothing read.
      expect(receiptsOf(damaged.id).map((receipt) => receipt.attrs.type)).toContain("retry");
      expect(readReceiptsOf(damaged.id)).toEqual([]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "without sendReadReceipts a committed message is marked read nowhere",
    async () => {
      await open();
      const key = s.fake.personSends({ from: ANN.phone, chat: s.team.id, text: "quietly" });
      await messageEvent(s.channel, key.id);
      const barrier = s.fake.personSends({ from: BOB.phone, text: "barrier" });
      await messageEvent(s.channel, barrier.id);
      expect(s.fake.stanzas({ tag: "receipt", type: "read" })).toEqual([]);
    },
    WIRE_TEST_TIMEOUT,
  );
});
