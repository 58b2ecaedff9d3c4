import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { family } from "./fixtures/messages.js";
import { MessageLog } from "./message-log.js";
import { BotReactionStore } from "./reaction-store.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-wa-state-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("MessageLog", () => {
  it("remembers messages seen and sent across a restart, and which ones the bot sent", async () => {
    const log = new MessageLog(dir);
    await log.load();
    await Promise.all([
      log.record({ remoteJid: family.id, id: "IN1", fromMe: false, participant: "1@lid", fromBot: false, text: "hi" }),
      log.record({ remoteJid: family.id, id: "OUT1", fromMe: true, participant: "9@s.whatsapp.net", fromBot: true }),
    ]);
    const again = new MessageLog(dir);
    await again.load();
    expect(again.get(family.id, "IN1")).toEqual({
      remoteJid: family.id,
      id: "IN1",
      fromMe: false,
      participant: "1@lid",
      fromBot: false,
      text: "hi",
    });
    expect(again.sentByBot("OUT1")).toBe(true);
    expect(again.sentByBot("IN1")).toBe(false);
    expect(again.get("other@g.us", "IN1")).toBeUndefined();
  });

  it("many records in a burst end up on disk, in one file that parses", async () => {
    const log = new MessageLog(dir);
    await log.load();
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        log.record({ remoteJid: family.id, id: `M${i}`, fromMe: false, fromBot: false, text: "x".repeat(1000) }),
      ),
    );
    await log.flush();
    const stored = JSON.parse(await readFile(join(dir, "messages.json"), "utf8")) as { id: string; text: string }[];
    expect(stored).toHaveLength(200);
    expect(stored.at(-1)?.id).toBe("M199");
    // Only what a quote needs is kept of the text.
    expect(stored[0]?.text.length).toBe(300);
  });

  it("a broken file is an empty record, not a failure", async () => {
    await writeFile(join(dir, "messages.json"), "[{ broken");
    const log = new MessageLog(dir);
    await log.load();
    expect(log.get(family.id, "IN1")).toBeUndefined();
  });
});

describe("BotReactionStore", () => {
  it("keeps the one emoji the bot holds per message, across a restart", async () => {
    const store = new BotReactionStore(dir);
    expect(await store.get(family.id, "A")).toBeUndefined();
    await store.set(family.id, "A", "👍");
    await store.set(family.id, "B", "❤️");
    await store.set(family.id, "B", undefined);
    const again = new BotReactionStore(dir);
    expect(await again.get(family.id, "A")).toBe("👍");
    expect(await again.get(family.id, "B")).toBeUndefined();
  });
});
