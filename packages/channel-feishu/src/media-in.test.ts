import { readFileSync } from "node:fs";
import { collectBytes } from "@chorus/channel-kit";
import { type Attachment, type InboundMessageEvent, isChorusError } from "@chorus/core";
import { sampleMedium } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type FeishuHarness, requestLines, startFeishu } from "./start.test-util.js";

const DOC_CHAT = "oc_5ce6d572455d361153b7xx51da133945";
const DOC_MESSAGE = "om_5ce6d572455d361153b7cb51da133945";
const DOC_IMAGE_KEY = "img_7ea74629-9191-4176-998c-2e603c9c5e8g";
/** A sample's bytes, type and name, without its kind. */
const sample = (kind: Parameters<typeof sampleMedium>[0]) => {
  const { kind: _, ...rest } = sampleMedium(kind);
  return rest;
};
const png = sample("image");
const voice = sample("voice");
const mp4 = sample("video");
const pdf = sample("file");

let h: FeishuHarness;

afterEach(async () => {
  await h?.close();
});

const messages = () => h.running.events.filter((e): e is InboundMessageEvent => e.type === "message");
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8")) as {
    event: { message: { message_type: string; content: string } };
  };

/** Downloads an attachment through the plugin, whole. */
async function download(attachment: Attachment | undefined, maxBytes = 1024 * 1024) {
  const instance = h.running.instance;
  if (!attachment || !instance.download) throw new Error("nothing to download");
  const medium = await instance.download(attachment, { maxBytes });
  return { mime: medium.mime, bytes: await collectBytes(medium.stream, maxBytes, "test") };
}

/** Tom, the chat and the message of Feishu's documented example, as the fake holds them. */
function documentedChat() {
  const tom = h.fake.addUser("Tom", "ou_84aad35d084aa403a838cf73ee18467");
  h.fake.state.addChat({ chat_id: DOC_CHAT, name: "Project X", chat_mode: "group", members: [tom.open_id] });
  return tom;
}

/** Stores a message of Feishu's example under its documented id, as Feishu holds it. */
function documentedMessage(id: string, name: string, sender: string) {
  const { message_type, content } = fixture(name).event.message;
  const stored = h.fake.state.postMessage({
    chatId: DOC_CHAT,
    sender: { id: sender, id_type: "open_id", sender_type: "user" },
    msgType: message_type,
    content,
  });
  h.fake.state.messages.delete(stored.message_id);
  h.fake.state.messages.set(id, { ...stored, message_id: id });
}

describe("receiving media", () => {
  it("reads Feishu's image message (the documented event) as an image attachment, and downloads it with the tenant token", async () => {
    h = await startFeishu({ fake: { appId: "cli_9f5343c580712544" } });
    const tom = documentedChat();
    documentedMessage(DOC_MESSAGE, "message-receive-image", tom.open_id);
    h.fake.media.resources.add(
      { kind: "image", bytes: png.bytes, mime: "image/png", owner: tom.open_id },
      DOC_IMAGE_KEY,
    );

    await h.fake.longConnection.push(fixture("message-receive-image"));
    const [event] = messages();
    // An image alone has no text: the attachment says what it is.
    expect(event?.text).toBe("");
    expect(event?.attachments).toEqual([
      { kind: "image", source: { messageId: DOC_MESSAGE, key: DOC_IMAGE_KEY, type: "image" } },
    ]);

    expect(await download(event?.attachments?.[0])).toEqual({ mime: "image/png", bytes: png.bytes });
    const path = `/open-apis/im/v1/messages/${DOC_MESSAGE}/resources/${DOC_IMAGE_KEY}`;
    expect(requestLines(h.fake, /\/resources\//u)).toEqual([`GET ${path}?type=image → 200`]);
    const [request] = h.fake.server.requestsTo("GET", path);
    expect(request?.headers.authorization).toBe(`Bearer ${h.fake.tokens.issued.at(-1)}`);
  });

  it("makes a post's images attachments, with their sizes, and keeps its text", async () => {
    h = await startFeishu();
    documentedChat();
    await h.fake.longConnection.push(fixture("message-receive-post"));
    const [event] = messages();
    expect(event?.text).toContain("please summarise this page");
    expect(event?.attachments).toEqual([
      {
        kind: "image",
        width: 1024,
        height: 768,
        source: {
          messageId: "om_dc13264520392913993dd051dba21dcf",
          key: "img_v2_041b28e3-5680-48c2-9af2-497ace79333g",
          type: "image",
        },
      },
    ]);
  });

  it("reads a file, a voice message and a video with their names and durations; each downloads as a file resource", async () => {
    h = await startFeishu();
    const chatId = h.team.chat_id;
    await h.fake.media.userSends({ chatId, from: h.ann, kind: "file", ...pdf, filename: "notes.pdf" });
    await h.fake.media.userSends({ chatId, from: h.ann, kind: "voice", ...voice, durationMs: 2300 });
    await h.fake.media.userSends({ chatId, from: h.ann, kind: "video", ...mp4, durationMs: 1000 });
    const attachments = messages().flatMap((e) => e.attachments ?? []);
    expect(messages().map((e) => e.text)).toEqual(["", "", ""]);
    expect(attachments.map(({ source: _, ...facts }) => facts)).toEqual([
      { kind: "file", filename: "notes.pdf" },
      { kind: "voice", durationMs: 2300 },
      { kind: "video", filename: "video.mp4", durationMs: 1000 },
    ]);
    const downloads = await Promise.all(attachments.map((a) => download(a)));
    expect(downloads).toEqual([
      { mime: "application/pdf", bytes: pdf.bytes },
      { mime: "audio/ogg", bytes: voice.bytes },
      { mime: "video/mp4", bytes: mp4.bytes },
    ]);
    expect(requestLines(h.fake, /\/resources\//u).every((line) => line.includes("?type=file → 200"))).toBe(true);
  });

  it("reads a shared location's coordinates (strings on the wire) and name", async () => {
    h = await startFeishu();
    const place = { latitude: 39.9075, longitude: 116.3972, name: "天安门" };
    await h.fake.media.userSends({ chatId: h.team.chat_id, from: h.ann, kind: "location", location: place });
    expect(messages()[0]).toMatchObject({ text: "", attachments: [{ kind: "location", location: place }] });
  });

  it("keeps a sticker as the text [sticker]: Feishu lets no app download one", async () => {
    h = await startFeishu();
    await h.fake.media.userSends({ chatId: h.team.chat_id, from: h.ann, kind: "sticker", ...sample("sticker") });
    expect(messages()[0]).toMatchObject({ text: "[sticker]" });
    expect(messages()[0]?.attachments).toBeUndefined();
  });

  it("downloads again with a fresh token when Feishu says the old one is no longer valid", async () => {
    h = await startFeishu();
    await h.fake.media.userSends({ chatId: h.team.chat_id, from: h.ann, kind: "image", ...png });
    h.fake.tokens.expireAll();
    expect((await download(messages()[0]?.attachments?.[0])).bytes).toEqual(png.bytes);
    expect(requestLines(h.fake, /\/resources\//u).map((line) => line.replace(/^.* → /u, ""))).toEqual(["400", "200"]);
    expect(h.fake.tokens.issued).toHaveLength(2);
  });

  it("says what Feishu refused: a key of another message, a resource over its download limit", async () => {
    h = await startFeishu({ fake: { limits: { maxDownloadBytes: 1000 } } });
    const bytes = new Uint8Array(2000).fill(7);
    await h.fake.media.userSends({ chatId: h.team.chat_id, from: h.ann, kind: "file", bytes, filename: "big.bin" });
    const [attachment] = messages()[0]?.attachments ?? [];
    const failure = (error: unknown) =>
      isChorusError(error) ? { code: error.code, message: error.message } : { code: "?", message: String(error) };

    const elsewhere = {
      ...attachment,
      source: { messageId: "om_other", key: "file_v3_x", type: "file" },
    } as Attachment;
    const gone = failure(await download(elsewhere).catch((error: unknown) => error));
    expect(gone.code).toBe("E_MESSAGE_NOT_FOUND");
    expect(gone.message).toContain("code 234003");

    const big = failure(await download(attachment).catch((error: unknown) => error));
    expect(big).toMatchObject({ code: "E_TOO_LARGE", message: expect.stringContaining("code 234037") });
    for (const token of h.fake.tokens.issued) expect(JSON.stringify([gone, big])).not.toContain(token);
  });
});
