import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileStore, MemoryStore } from "@chorus/channel-kit/state";
import { proto } from "@whiskeysockets/baileys";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { family } from "../fixtures/messages.js";
import { MESSAGE_LOG_TTL_MS, MessageLog } from "./message-log.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-wa-log-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("MessageLog", () => {
  it("remembers messages seen and sent across a restart of the store, and which ones the bot sent", async () => {
    const log = new MessageLog(new FileStore({ dir }));
    await Promise.all([
      log.record({ remoteJid: family.id, id: "IN1", fromMe: false, participant: "1@lid", fromBot: false, text: "hi" }),
      log.record({ remoteJid: family.id, id: "OUT1", fromMe: true, participant: "9@s.whatsapp.net", fromBot: true }),
    ]);
    const again = new MessageLog(new FileStore({ dir }));
    expect(await again.get(family.id, "IN1")).toEqual({
      remoteJid: family.id,
      id: "IN1",
      fromMe: false,
      participant: "1@lid",
      fromBot: false,
      text: "hi",
    });
    expect(await again.sentByBot(family.id, ["OUT1", "IN1", undefined, "NONE"])).toEqual(new Set(["OUT1"]));
    // A message id belongs to its chat.
    expect(await again.get("other@g.us", "IN1")).toBeUndefined();
    expect(await again.sentByBot("other@g.us", ["OUT1"])).toEqual(new Set());
  });

  it("keeps only what a quote needs of the text", async () => {
    const log = new MessageLog(new MemoryStore());
    await log.record({ remoteJid: family.id, id: "LONG", fromMe: false, fromBot: false, text: "x".repeat(1000) });
    expect((await log.get(family.id, "LONG"))?.text).toHaveLength(300);
  });

  it("keeps the content of the bot's own message for a retry request, bytes and all, after a restart", async () => {
    const secret = Buffer.alloc(32, 7);
    const content: proto.IMessage = {
      extendedTextMessage: { text: "Pasta at 7.", contextInfo: { mentionedJid: ["1@lid"] } },
      messageContextInfo: { messageSecret: secret },
    };
    const log = new MessageLog(new FileStore({ dir }));
    await log.record({ remoteJid: family.id, id: "OUT2", fromMe: true, fromBot: true, text: "Pasta at 7." }, content);
    const again = new MessageLog(new FileStore({ dir }));
    const back = await again.content({ remoteJid: family.id, id: "OUT2", fromMe: true });
    expect(back?.extendedTextMessage?.text).toBe("Pasta at 7.");
    expect(back?.extendedTextMessage?.contextInfo?.mentionedJid).toEqual(["1@lid"]);
    expect(Buffer.from(back?.messageContextInfo?.messageSecret ?? [])).toEqual(secret);
    // It encodes to the same bytes Baileys sent, so a re-encrypted retry carries the same message.
    expect(Buffer.from(proto.Message.encode(back as proto.Message).finish())).toEqual(
      Buffer.from(proto.Message.encode(proto.Message.fromObject(content)).finish()),
    );
    expect(await again.get(family.id, "OUT2")).not.toHaveProperty("content");
    expect(await again.content({ remoteJid: family.id, id: "IN9" })).toBeUndefined();
  });

  it("forgets a message MESSAGE_LOG_TTL_MS after it was recorded", async () => {
    let now = 1_000;
    const log = new MessageLog(new MemoryStore(() => now));
    await log.record({ remoteJid: family.id, id: "OLD", fromMe: false, fromBot: false });
    now += MESSAGE_LOG_TTL_MS - 1;
    expect(await log.get(family.id, "OLD")).toBeDefined();
    now += 1;
    expect(await log.get(family.id, "OLD")).toBeUndefined();
  });
});
