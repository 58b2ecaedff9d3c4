import { performReaction } from "@chorus/core";
import { eventually } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { ANN } from "../fixtures/wire-messages.js";
import {
  messageEvent,
  openWireSession,
  PATIENCE,
  WIRE_TEST_TIMEOUT,
  type WireSession,
} from "../fixtures/wire-session.js";
import { whatsappChannel } from "../index.js";

// WhatsApp acks every <message> with its id (an `error` code when it refused it); sends and
// reactions resolve on that ack, not when Baileys wrote the stanza.
let s: WireSession;
afterEach(async () => {
  await s.close();
});

const messageStanzas = () => s.fake.stanzas({ tag: "message" }).filter((stanza) => stanza.attrs.type === "text");

describe("waiting for WhatsApp's ack", () => {
  it(
    "a refused message (ack error 479) fails for good, nothing arrived, and it is not sent again",
    async () => {
      s = await openWireSession();
      s.fake.failNextMessage({ kind: "refuse", error: 479 });
      const sending = s.channel.instance.send({ id: s.ann.jid }, { text: "refused" });
      await expect(sending).rejects.toMatchObject({
        code: "E_PLATFORM",
        retryable: false,
        message: expect.stringContaining("ack error 479"),
      });
      expect(s.fake.botMessages(s.ann.jid)).toEqual([]);
      expect(messageStanzas()).toHaveLength(1);
      const ref = await s.channel.instance.send({ id: s.ann.jid }, { text: "accepted" });
      expect(s.fake.botMessages(s.ann.jid).map((message) => [message.id, message.text])).toEqual([
        [ref.messageId, "accepted"],
      ]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "an ack error 429 is a rate limit",
    async () => {
      s = await openWireSession();
      s.fake.failNextMessage({ kind: "refuse", error: 429 });
      await expect(s.channel.instance.send({ id: s.ann.jid }, { text: "too fast" })).rejects.toMatchObject({
        code: "E_RATE_LIMITED",
        retryable: true,
      });
      expect(messageStanzas()).toHaveLength(1);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "an ack error of 500 or more is retryable; 463 says the account is restricted",
    async () => {
      s = await openWireSession();
      s.fake.failNextMessage({ kind: "refuse", error: 503 });
      await expect(s.channel.instance.send({ id: s.ann.jid }, { text: "busy" })).rejects.toMatchObject({
        code: "E_PLATFORM",
        retryable: true,
      });
      s.fake.failNextMessage({ kind: "refuse", error: 463 });
      await expect(s.channel.instance.send({ id: s.ann.jid }, { text: "restricted" })).rejects.toMatchObject({
        code: "E_PLATFORM",
        retryable: false,
        hint: expect.stringContaining("restricted"),
      });
      expect(messageStanzas()).toHaveLength(2);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "no ack within ackTimeoutMs: a retryable failure, and no second copy (the first did arrive)",
    async () => {
      s = await openWireSession({ config: { ackTimeoutMs: 500 } });
      s.fake.failNextMessage({ kind: "no-ack" });
      await expect(s.channel.instance.send({ id: s.ann.jid }, { text: "lost ack" })).rejects.toMatchObject({
        code: "E_PLATFORM",
        retryable: true,
        message: expect.stringMatching(
          /did not confirm the message \(no ack within 500 ms\); it may still have arrived/,
        ),
      });
      expect(s.fake.botMessages(s.ann.jid).map((message) => message.text)).toEqual(["lost ack"]);
      expect(messageStanzas()).toHaveLength(1);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "the connection dropping before the ack fails the send at once instead of at the timeout",
    async () => {
      s = await openWireSession({ config: { ackTimeoutMs: 45_000 } });
      s.fake.failNextMessage({ kind: "no-ack" });
      const sending = s.channel.instance
        .send({ id: s.ann.jid }, { text: "in flight" })
        .catch((error: unknown) => error);
      await eventually(() => expect(messageStanzas()).toHaveLength(1), PATIENCE);
      await s.fake.dropConnections();
      expect(await sending).toMatchObject({
        code: "E_PLATFORM",
        retryable: true,
        message: expect.stringContaining("the connection closed before its ack"),
      });
      expect(messageStanzas()).toHaveLength(1);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a refused reaction leaves the slot as it was, so the same reaction is sent again next time",
    async () => {
      s = await openWireSession();
      // A direct chat: a refused group message would also have lost the sender key it carried
      // (WhatsApp's recipients then ask for a retry, which the fake does not play).
      const key = s.fake.personSends({ from: ANN.phone, text: "react to me" });
      const { ref } = await messageEvent(s.channel, key.id);
      const react = () =>
        performReaction({ plugin: whatsappChannel, instance: s.channel.instance, ref, call: { emoji: "👍" } });
      s.fake.failNextMessage({ kind: "refuse", error: 479 });
      await expect(react()).rejects.toMatchObject({ code: "E_PLATFORM", message: expect.stringContaining("479") });
      expect(s.fake.problems).toEqual([]);
      expect(s.fake.botReaction(s.ann.jid, key.id)).toBeUndefined();
      expect(await react()).toEqual({ ok: true, action: "react", op: "add", emoji: "👍" });
      expect(s.fake.botReaction(s.ann.jid, key.id)).toBe("👍");
      expect(s.fake.stanzas({ tag: "message", type: "reaction" })).toHaveLength(2);
    },
    WIRE_TEST_TIMEOUT,
  );
});
