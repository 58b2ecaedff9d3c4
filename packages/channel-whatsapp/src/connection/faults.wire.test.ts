import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { EscapeWatch, eventually } from "@chorus/testkit";
import { initAuthCreds } from "@whiskeysockets/baileys";
import { afterEach, describe, expect, it } from "vitest";
import { ANN, BOT, pnJid } from "../fixtures/wire-messages.js";
import {
  messageEvent,
  openWireSession,
  PATIENCE,
  WIRE_TEST_TIMEOUT,
  type WireSession,
} from "../fixtures/wire-session.js";

// CHANNELS.md "Failures" against the fake: WhatsApp's iq errors, lost connections, logins it
// refuses, and a device it logged out. Reconnects wait 0.5–1 s, long enough to see "degraded".
const SLOW_RECONNECT = { reconnectMinMs: 1_000, reconnectMaxMs: 2_000 };
const LINK_AGAIN = /chorus channels login whatsapp/;

let s: WireSession;
afterEach(async () => {
  await s.close();
});

/** Group lookups (`w:g2` iqs to the group) the bot made. */
const groupLookups = (jid: string) => s.fake.stanzas({ xmlns: "w:g2" }).filter((stanza) => stanza.attrs.to === jid);
/** WebSocket connections the bot opened to the fake. */
const connections = () => s.fake.server.requestsTo("GET", "/ws/chat").length;
const authFiles = () => readdir(join(s.stateDir, "auth"));

describe("WhatsApp errors on a send", () => {
  it(
    "429 on the lookup of a group not yet cached is E_RATE_LIMITED, and nothing is sent",
    async () => {
      s = await openWireSession();
      s.fake.failNextIq({ xmlns: "w:g2" }, { code: 429, text: "rate-overlimit" }, 2);
      await expect(s.channel.instance.send({ id: s.team.id }, { text: "too soon" })).rejects.toMatchObject({
        code: "E_RATE_LIMITED",
        retryable: true,
        retryAfterMs: 10_000,
      });
      // The plugin's lookup is not repeated on a rate limit; Baileys then asked once itself.
      expect(groupLookups(s.team.id)).toHaveLength(2);
      expect(s.fake.stanzas({ tag: "message" })).toEqual([]);
      await s.channel.instance.send({ id: s.team.id }, { text: "later" });
      expect(s.fake.botMessages(s.team.id).map((message) => message.text)).toEqual(["later"]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "503 then 500 on the group lookup: retried, and the message goes once",
    async () => {
      s = await openWireSession();
      s.fake.failNextIq({ xmlns: "w:g2" }, { code: 503, text: "service-unavailable" });
      s.fake.failNextIq({ xmlns: "w:g2" }, { code: 500, text: "internal-server-error" });
      const ref = await s.channel.instance.send({ id: s.team.id }, { text: "third time lucky" });
      expect(groupLookups(s.team.id)).toHaveLength(3);
      expect(s.fake.botMessages(s.team.id).map((message) => [message.id, message.text])).toEqual([
        [ref.messageId, "third time lucky"],
      ]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a group lookup that keeps failing gives up after the configured retries with a retryable E_PLATFORM",
    async () => {
      s = await openWireSession({ config: { retries: 2 } });
      s.fake.failNextIq({ xmlns: "w:g2" }, { code: 503, text: "service-unavailable" }, 10);
      await expect(s.channel.instance.send({ id: s.team.id }, { text: "never" })).rejects.toMatchObject({
        code: "E_PLATFORM",
        retryable: true,
        message: expect.stringContaining("503"),
      });
      // 1 + 2 retries by the plugin's cache, then Baileys' own lookup; the send is not repeated.
      expect(groupLookups(s.team.id)).toHaveLength(4);
      expect(s.fake.stanzas({ tag: "message" })).toEqual([]);
    },
    WIRE_TEST_TIMEOUT,
  );
});

describe("the connection", () => {
  it(
    "dropped: degraded, then running again with a new login; what was written meanwhile arrives late and still counts; messages flow both ways afterwards",
    async () => {
      s = await openWireSession({ config: SLOW_RECONNECT });
      expect(s.fake.logins).toBe(1);
      await s.fake.dropConnections();
      await eventually(
        () =>
          expect(s.channel.instance.status()).toMatchObject({
            state: "degraded",
            detail: expect.stringMatching(/connection closed: .*reconnecting in/),
          }),
        PATIENCE,
      );
      // Written during the outage: WhatsApp delivers it at the next login, late (offline), and it is still input.
      const missed = s.fake.personSends({ from: ANN.phone, text: "anyone there?" });
      await eventually(() => expect(s.channel.instance.status().state).toBe("running"), PATIENCE);
      expect(s.fake.logins).toBe(2);
      expect((await messageEvent(s.channel, missed.id)).text).toBe("anyone there?");
      const key = s.fake.personSends({ from: ANN.phone, text: "are you back?" });
      expect((await messageEvent(s.channel, key.id)).text).toBe("are you back?");
      const ref = await s.channel.instance.send({ id: s.ann.jid }, { text: "I am" });
      expect(s.fake.botMessages(s.ann.jid).map((message) => message.id)).toEqual([ref.messageId]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "frames that are not valid noise end the connection, not the process: degraded with the reason, then running again",
    async () => {
      s = await openWireSession({ config: SLOW_RECONNECT });
      const watch = new EscapeWatch().start();
      try {
        await s.fake.fault("garbage");
        await eventually(
          () =>
            expect(s.channel.instance.status()).toMatchObject({
              state: "degraded",
              detail: expect.stringMatching(/connection closed: WhatsApp sent a frame that could not be read: /),
            }),
          PATIENCE,
        );
        expect(
          s.channel.logs
            .at("warn")
            .some((r) => r.message.startsWith("whatsapp: WhatsApp sent a frame that is not valid")),
        ).toBe(true);
        s.fake.heal();
        await eventually(() => expect(s.channel.instance.status().state).toBe("running"), PATIENCE);
        const key = s.fake.personSends({ from: ANN.phone, text: "back?" });
        expect((await messageEvent(s.channel, key.id)).text).toBe("back?");
      } finally {
        watch.stop();
      }
      // Baileys decodes frames in an async listener: without the guard this is an unhandled rejection.
      expect(watch.describe()).toBe("");
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a login refused with 503 at start: degraded, then running",
    async () => {
      s = await openWireSession({ config: SLOW_RECONNECT, start: false });
      s.fake.failNextLogin(503);
      const starting = s.channel.instance.start();
      await eventually(() => expect(s.channel.instance.status()).toMatchObject({ state: "degraded" }), PATIENCE);
      expect(s.channel.instance.status().detail).toMatch(/\(503\)/);
      await starting;
      expect(s.channel.instance.status().state).toBe("running");
      expect(s.fake.logins).toBe(1);
      expect(connections()).toBe(2);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "logged out on the phone: stopped, says to link again, credentials deleted, sends E_AUTH, no reconnect",
    async () => {
      s = await openWireSession();
      expect(await authFiles()).toContain("creds.json");
      s.fake.logOut();
      await eventually(
        () =>
          expect(s.channel.instance.status()).toEqual({
            state: "stopped",
            detail: expect.stringMatching(LINK_AGAIN),
          }),
        PATIENCE,
      );
      expect(s.channel.instance.status().detail).toMatch(/^logged out: /);
      await eventually(async () => expect(await authFiles()).toEqual([]), PATIENCE);
      await expect(s.channel.instance.send({ id: s.ann.jid }, { text: "hello?" })).rejects.toMatchObject({
        code: "E_AUTH",
        hint: "Run: chorus channels login whatsapp",
      });
      // "stopped" is final: only the "reconnecting" state schedules a new connection.
      expect(s.fake.logins).toBe(1);
      expect(connections()).toBe(1);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "no linked device in stateDir: stopped, not linked, sends E_AUTH, nothing connects",
    async () => {
      s = await openWireSession({ creds: "none" });
      expect(s.channel.instance.status()).toEqual({
        state: "stopped",
        detail: expect.stringMatching(/^not linked: run `chorus channels login whatsapp`/),
      });
      await expect(s.channel.instance.send({ id: s.team.id }, { text: "hi" })).rejects.toMatchObject({
        code: "E_AUTH",
      });
      expect(s.fake.server.requests).toEqual([]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a device WhatsApp never linked (forged credentials) is refused: stopped, link again, nothing received",
    async () => {
      // WhatsApp has no webhooks to forge; the counterpart is a client claiming to be a device of the account.
      const forged = {
        ...initAuthCreds(),
        me: { id: `${BOT.phone}:7@s.whatsapp.net`, name: BOT.name },
        registered: true,
      };
      s = await openWireSession({ creds: forged });
      await eventually(
        () =>
          expect(s.channel.instance.status()).toEqual({ state: "stopped", detail: expect.stringMatching(LINK_AGAIN) }),
        PATIENCE,
      );
      expect(s.fake.logins).toBe(0);
      await eventually(async () => expect(await authFiles()).toEqual([]), PATIENCE);
      s.fake.personSends({ from: ANN.phone, text: "for the real device only" });
      await expect(s.channel.instance.send({ id: pnJid(ANN) }, { text: "hi" })).rejects.toMatchObject({
        code: "E_AUTH",
      });
      expect(s.channel.events).toEqual([]);
      expect(connections()).toBe(1);
    },
    WIRE_TEST_TIMEOUT,
  );
});
