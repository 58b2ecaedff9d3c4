import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performReaction } from "@chorus/core";
import { eventually } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { ANN, BOB } from "../fixtures/wire-messages.js";
import {
  messageEvent,
  openWireSession,
  PATIENCE,
  WIRE_TEST_TIMEOUT,
  type WireSession,
} from "../fixtures/wire-session.js";
import { whatsappChannel } from "../index.js";

// Upgrading from 0.1, which kept its records in files in stateDir: bot-reactions.json (the
// bot's reaction per message) and messages.json (messages seen and sent, for group authors).
let s: WireSession;
afterEach(async () => {
  const { problems } = s.fake;
  await s.close();
  expect(problems).toEqual([]);
});

/** A day ago, in seconds: older than `offlineCatchUpMs`, so the late delivery stays history. */
const yesterday = () => Math.floor(Date.now() / 1000) - 24 * 60 * 60;

describe("upgrading from the files of version 0.1", () => {
  it(
    "finds the old bot reaction and group author: clearAll removes the reaction the old version set; the files become .imported",
    async () => {
      s = await openWireSession({ start: false });
      // What happened under 0.1: Ann wrote in "Team" and the bot (the account) reacted 👍.
      const old = s.fake.personSends({
        from: ANN.phone,
        chat: s.team.id,
        text: "dinner at 7?",
        timestamp: yesterday(),
      });
      s.fake.ownerReacts({ chat: s.team.id, target: old.id, emoji: "👍" });
      expect(s.fake.botReaction(s.team.id, old.id)).toBe("👍");
      // The files exactly as 0.1's JsonStateFile wrote them: JSON and a newline.
      const reactions = { [`${s.team.id}\n${old.id}`]: "👍" };
      const messages = [
        {
          remoteJid: s.team.id,
          id: old.id,
          fromMe: false,
          participant: s.ann.lidJid,
          fromBot: false,
          text: "dinner at 7?",
        },
      ];
      await writeFile(join(s.stateDir, "bot-reactions.json"), `${JSON.stringify(reactions)}\n`);
      await writeFile(join(s.stateDir, "messages.json"), `${JSON.stringify(messages)}\n`);

      await s.channel.instance.start();
      // The group message's author comes from the imported log (WhatsApp has no call to look it up).
      const ref = await s.channel.instance.resolveMessageRef({ id: s.team.id }, old.id);
      expect(ref.data).toEqual({ remoteJid: s.team.id, fromMe: false, participant: s.ann.lidJid });
      const result = await performReaction({
        plugin: whatsappChannel,
        instance: s.channel.instance,
        ref,
        call: { clearAll: true },
      });
      // Only the imported record says what the bot holds: WhatsApp cannot list reactions.
      expect(result).toMatchObject({ op: "clear", removed: ["👍"] });
      await eventually(() => expect(s.fake.botReaction(s.team.id, old.id)).toBeUndefined(), PATIENCE);
      const names = await readdir(s.stateDir);
      expect(names).toEqual(expect.arrayContaining(["bot-reactions.json.imported", "messages.json.imported"]));
      expect(names).not.toContain("bot-reactions.json");
      expect(names).not.toContain("messages.json");
      expect(
        s.channel.logs.at("info").filter((r) => r.message === "imported earlier channel state into the store"),
      ).toHaveLength(2);

      // After a restart the records are still there, from the store: nothing is imported twice.
      await s.restart();
      expect((await s.channel.instance.resolveMessageRef({ id: s.team.id }, old.id)).data).toEqual(ref.data);
      expect(s.channel.logs.at("info").some((r) => r.message.startsWith("imported"))).toBe(false);
      const key = s.fake.personSends({ from: BOB.phone, text: "still there?" });
      expect((await messageEvent(s.channel, key.id)).text).toBe("still there?");
    },
    WIRE_TEST_TIMEOUT,
  );
});
