import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BotReactionRecord } from "@chorus/channel-kit";
import { MemoryStore } from "@chorus/channel-kit/state";
import { LogRecorder } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { family } from "../fixtures/messages.js";
import { importLegacyState } from "./legacy-state.js";
import { MessageLog } from "./message-log.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-wa-legacy-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// The files exactly as version 0.1 wrote them (`JsonStateFile`: JSON plus a newline).
const oldReactions = { [`${family.id}\n3EB0AAAA`]: "👍", "15551230001@s.whatsapp.net\n3EB0BBBB": "❤️" };
const oldMessages = [
  {
    remoteJid: family.id,
    id: "3EB0AAAA",
    fromMe: false,
    participant: "100000000000001@lid",
    fromBot: false,
    text: "hi",
  },
  { remoteJid: family.id, id: "3EB0CCCC", fromMe: true, participant: "15550001111@s.whatsapp.net", fromBot: true },
  { remoteJid: family.id, broken: true },
];

describe("importLegacyState", () => {
  it("moves bot-reactions.json and messages.json into the store once and keeps them as .imported", async () => {
    await writeFile(join(dir, "bot-reactions.json"), `${JSON.stringify(oldReactions)}\n`);
    await writeFile(join(dir, "messages.json"), `${JSON.stringify(oldMessages)}\n`);
    const store = new MemoryStore();
    const logs = new LogRecorder();
    await importLegacyState(store, logs.logger, dir);

    const record = new BotReactionRecord(store);
    expect(await record.held({ conversationId: family.id, messageId: "3EB0AAAA" })).toEqual(["👍"]);
    expect(await record.held({ conversationId: "15551230001@s.whatsapp.net", messageId: "3EB0BBBB" })).toEqual(["❤️"]);
    const log = new MessageLog(store);
    expect(await log.get(family.id, "3EB0AAAA")).toEqual(oldMessages[0]);
    expect(await log.sentByBot(family.id, ["3EB0CCCC", "3EB0AAAA"])).toEqual(new Set(["3EB0CCCC"]));
    expect((await readdir(dir)).sort()).toEqual(["bot-reactions.json.imported", "messages.json.imported"]);

    await importLegacyState(store, logs.logger, dir);
    expect(logs.at("info").map((r) => r.message)).toEqual([
      "imported earlier channel state into the store",
      "imported earlier channel state into the store",
    ]);
  });

  it("sets an unreadable file aside with a warning naming it, and starts without it", async () => {
    await writeFile(join(dir, "bot-reactions.json"), "{ half a fi");
    await writeFile(join(dir, "messages.json"), `${JSON.stringify({ not: "a list" })}\n`);
    const store = new MemoryStore();
    const logs = new LogRecorder();
    await importLegacyState(store, logs.logger, dir);
    expect(await store.list("")).toEqual([]);
    const warnings = logs.at("warn").map((r) => r.message);
    expect(warnings).toEqual([
      expect.stringMatching(/could not import .*bot-reactions\.json \(not valid JSON\); set it aside/),
      expect.stringMatching(/could not import .*messages\.json \(not a list of messages\); set it aside/),
    ]);
    expect((await readdir(dir)).some((name) => name.startsWith("bot-reactions.json.corrupt-"))).toBe(true);
  });
});
