import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import type { MessageRef } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type ConversationRefsFile,
  conversationRefsPath,
  MessageIndex,
  type MessageIndexOptions,
} from "./message-index.js";

let dir: string;
let warnings: string[];
let opened: MessageIndex[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-index-"));
  warnings = [];
  opened = [];
});
afterEach(async () => {
  // Background writes must land before the directory goes away.
  await Promise.allSettled(opened.map((index) => index.flush()));
  await rm(dir, { recursive: true, force: true });
});

function createIndex(options: Omit<MessageIndexOptions, "dir" | "onWarning"> = {}): MessageIndex {
  const list = warnings;
  const index = new MessageIndex({ dir, ...options, onWarning: (message) => list.push(message) });
  opened.push(index);
  return index;
}

function ref(conversationId: string, messageId: string, extra: Partial<MessageRef> = {}): MessageRef {
  return { channel: "whatsapp", accountId: "default", conversationId, messageId, ...extra };
}

const lookup = (conversationId: string, messageId: string) => ({
  channel: "whatsapp",
  accountId: "default",
  conversationId,
  messageId,
});

async function readRefsFile(conversationId: string, channel = "whatsapp", accountId = "default") {
  const text = await readFile(conversationRefsPath(dir, channel, accountId, conversationId), "utf8");
  return JSON.parse(text) as ConversationRefsFile;
}

describe("MessageIndex", () => {
  it("finds a reference put earlier, with its platform data", async () => {
    const index = createIndex();
    const withParticipant = ref("123@g.us", "ABC", { data: { participant: "4915@s.whatsapp.net", fromMe: false } });
    index.put(withParticipant);
    expect(await index.get(lookup("123@g.us", "ABC"))).toEqual(withParticipant);
    expect(await index.get(lookup("123@g.us", "nope"))).toBeUndefined();
    expect(await index.get({ ...lookup("123@g.us", "ABC"), accountId: "other" })).toBeUndefined();
  });

  it("survives a restart: a new instance reads what the old one flushed", async () => {
    const first = createIndex();
    first.put(ref("chat-1", "m1", { data: { author: "+4915", timestamp: 1700000000000 } }));
    first.put(ref("chat-2", "m2", { threadId: "t9", fromBot: true }));
    await first.flush();

    const second = createIndex();
    expect(await second.get(lookup("chat-1", "m1"))).toEqual(
      ref("chat-1", "m1", { data: { author: "+4915", timestamp: 1700000000000 } }),
    );
    expect(await second.get(lookup("chat-2", "m2"))).toEqual(ref("chat-2", "m2", { threadId: "t9", fromBot: true }));
    expect(warnings).toEqual([]);
  });

  it("stores one file per conversation at <dir>/<channel>/<accountId>/<sha256 prefix>.json", async () => {
    const index = createIndex();
    index.put(ref("conversation/with:odd chars", "m1"));
    await index.flush();
    const path = conversationRefsPath(dir, "whatsapp", "default", "conversation/with:odd chars");
    expect(dirname(path)).toBe(join(dir, "whatsapp", "default"));
    expect(path).toMatch(/[0-9a-f]{32}\.json$/);
    expect(await readRefsFile("conversation/with:odd chars")).toEqual({
      conversationId: "conversation/with:odd chars",
      refs: [ref("conversation/with:odd chars", "m1")],
    });
  });

  it("keeps account ids with separators inside the index directory", () => {
    for (const accountId of ["../../etc", "..", ".", "a/b\\c"]) {
      const path = conversationRefsPath(dir, "slack", accountId, "c");
      const segments = relative(dir, path).split(sep);
      expect(segments).toHaveLength(3);
      expect(segments[0]).toBe("slack");
      expect([".", ".."]).not.toContain(segments[1]);
    }
  });

  it("keeps at most perConversation references, dropping the oldest", async () => {
    const index = createIndex({ perConversation: 3 });
    for (const id of ["m1", "m2", "m3", "m4", "m5"]) index.put(ref("c", id));
    index.put(ref("c", "m3", { fromBot: true })); // a re-put moves m3 to the newest end
    index.put(ref("c", "m6"));
    await index.flush();
    expect((await readRefsFile("c")).refs.map((r) => r.messageId)).toEqual(["m5", "m3", "m6"]);
    expect(await index.get(lookup("c", "m4"))).toBeUndefined();
    expect(await index.get(lookup("c", "m3"))).toEqual(ref("c", "m3", { fromBot: true }));
  });

  it("merges references put before the file was loaded with those already stored, bounded", async () => {
    const first = createIndex({ perConversation: 3 });
    for (const id of ["old1", "old2", "old3"]) first.put(ref("c", id));
    await first.flush();
    const second = createIndex({ perConversation: 3 });
    second.put(ref("c", "new1")); // before anything was read for c
    await second.flush();
    expect((await readRefsFile("c")).refs.map((r) => r.messageId)).toEqual(["old2", "old3", "new1"]);
  });

  it("keeps at most maxCachedConversations in memory, flushing the one it evicts", async () => {
    const index = createIndex({ maxCachedConversations: 2 });
    index.put(ref("a", "ma"));
    index.put(ref("b", "mb"));
    index.put(ref("c", "mc")); // evicts a, which was never flushed
    expect(index.cachedConversations).toBe(2);
    await index.flush();
    expect((await readRefsFile("a")).refs.map((r) => r.messageId)).toEqual(["ma"]);
    // a comes back from disk
    expect(await index.get(lookup("a", "ma"))).toEqual(ref("a", "ma"));
    expect(index.cachedConversations).toBe(2);
  });

  it("reads an evicted conversation only after its pending write finished", async () => {
    const index = createIndex({ maxCachedConversations: 1 });
    for (let i = 0; i < 20; i++) {
      index.put(ref("a", `a${i}`));
      index.put(ref("b", `b${i}`)); // evicts a, then a evicts b, …
    }
    expect(await index.get(lookup("a", "a19"))).toEqual(ref("a", "a19"));
    expect(await index.get(lookup("b", "b0"))).toEqual(ref("b", "b0"));
    await index.flush();
    expect((await readRefsFile("a")).refs).toHaveLength(20);
    expect((await readRefsFile("b")).refs).toHaveLength(20);
  });

  it("sets a corrupt conversation file aside with a warning and starts that conversation empty", async () => {
    const path = conversationRefsPath(dir, "whatsapp", "default", "c");
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, "{ not json");
    const index = createIndex();
    expect(await index.get(lookup("c", "m1"))).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(path);
    const files = await readdir(dirname(path));
    expect(files.some((name) => name.includes(".json.corrupt-"))).toBe(true);
    index.put(ref("c", "m1"));
    await index.flush();
    expect((await readRefsFile("c")).refs).toEqual([ref("c", "m1")]);
  });

  it("drops invalid stored references with a warning and keeps a copy of the original", async () => {
    const path = conversationRefsPath(dir, "whatsapp", "default", "c");
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify({ conversationId: "c", refs: [ref("c", "good"), { channel: "whatsapp" }] }));
    const index = createIndex();
    expect(await index.get(lookup("c", "good"))).toEqual(ref("c", "good"));
    expect(warnings.join("\n")).toMatch(/refs\[1\].*accountId/);
    expect((await readdir(dirname(path))).some((name) => name.includes(".corrupt-"))).toBe(true);
  });

  it("rejects an incomplete reference with E_INVALID_INPUT", async () => {
    const index = createIndex();
    expect(() => index.put({ channel: "x", accountId: "a", conversationId: "c", messageId: "" })).toThrow(/messageId/);
    await expect(index.get({ ...lookup("c", "m"), channel: "" })).rejects.toMatchObject({ code: "E_INVALID_INPUT" });
    expect(() => new MessageIndex({ dir, perConversation: 0 })).toThrow(/perConversation/);
  });
});
