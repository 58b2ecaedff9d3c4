import { inspect } from "node:util";
import { collectBytes } from "@chorus/channel-kit";
import type { Attachment, InboundEvent, InboundMessageEvent, UploadKind } from "@chorus/core";
import { type RunningChannel, sampleMedium } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { ANN, GROUP, telegramSession } from "./fake-group.test-util.js";
import type { UserMediumInput } from "./testing/index.js";

const TOKEN = "424242424:AAmediaTokenThatMustNotLeak_0123456";
const KB = 1024;

const withMedia = (event: InboundEvent): event is InboundMessageEvent =>
  event.type === "message" && (event.attachments?.length ?? 0) > 0;

/** The attachment of the next message with one the plugin emits. */
async function received(running: RunningChannel): Promise<Attachment> {
  const before = running.events.filter(withMedia).length;
  await running.waitForEvent((e) => withMedia(e) && running.events.filter(withMedia).indexOf(e) >= before);
  const event = running.events.filter(withMedia)[before] as InboundMessageEvent;
  expect(event.attachments).toHaveLength(1);
  return event.attachments?.[0] as Attachment;
}

/** Downloads an attachment through the plugin and reads it whole (under `maxBytes`). */
async function downloaded(running: RunningChannel, attachment: Attachment, maxBytes = 20 * 1024 * KB) {
  const download = running.instance.download;
  if (!download) throw new Error("the instance has no download");
  const medium = await download(attachment, { maxBytes });
  return { medium, bytes: await collectBytes(medium.stream, maxBytes, "test") };
}

/** Bytes of `size`: the sample of `kind`, then filler. */
function large(kind: UploadKind, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  const head = sampleMedium(kind).bytes;
  bytes.set(head.subarray(0, size));
  for (let i = head.byteLength; i < size; i++) bytes[i] = i % 251;
  return bytes;
}

describe("media in: what a person sends arrives as attachments, and download gives the bytes Telegram stored", () => {
  const t = telegramSession({}, { token: TOKEN });
  const send = (sample: UserMediumInput["sample"], extra: Partial<UserMediumInput> = {}) =>
    t.fake.userSendsMedium({ chatId: GROUP, from: ANN, sample, ...extra });

  it.each([
    ["image", "image", undefined],
    ["video", "video", "video/mp4"],
    ["audio", "audio", "audio/mpeg"],
    ["voice", "voice", "audio/ogg"],
    ["file", "file", "application/pdf"],
    ["sticker", "sticker", "image/webp"],
  ] as const)("%s: one %s attachment, and its bytes through getFile and the file endpoint", async (kind, as, mime) => {
    const running = await t.start();
    const sample = sampleMedium(kind);
    send({ kind, bytes: sample.bytes, mime: sample.mime, filename: sample.filename });
    const attachment = await received(running);
    expect(attachment).toMatchObject({
      kind: as,
      size: sample.bytes.byteLength,
      source: { fileId: expect.any(String) },
    });
    expect(attachment.mime).toBe(mime);
    const { medium, bytes } = await downloaded(running, attachment);
    expect(Buffer.from(bytes).equals(Buffer.from(sample.bytes))).toBe(true);
    expect(medium.mime).toBe(sample.mime);
    // The file endpoint is under the configured apiRoot, the token in its path, as the Bot API addresses it.
    expect(t.fake.server.requestsTo("GET", /^\/file\/bot/).map((r) => r.path)).toEqual([
      expect.stringMatching(new RegExp(`^/file/bot${TOKEN}/[a-z_]+/file_\\d+\\.[a-z0-9]+$`)),
    ]);
  });

  it("a voice note: kind voice with its duration in milliseconds, the text empty", async () => {
    const running = await t.start();
    const sample = sampleMedium("voice");
    send({ kind: "voice", bytes: sample.bytes, mime: sample.mime }, { duration: 3 });
    const attachment = await received(running);
    expect(attachment).toMatchObject({ kind: "voice", mime: "audio/ogg", durationMs: 3000 });
    expect(running.events.find(withMedia)?.text).toBe("");
    expect(Buffer.from((await downloaded(running, attachment)).bytes).equals(Buffer.from(sample.bytes))).toBe(true);
  });

  it("an animation and a video note are videos; a caption mentioning the bot is the text and a mention", async () => {
    const running = await t.start();
    const sample = sampleMedium("video");
    send(
      { kind: "video", bytes: sample.bytes, mime: sample.mime, caption: "@chorus_test_bot look" },
      { as: "animation", captionEntities: [{ type: "mention", offset: 0, length: 16 }] },
    );
    const animation = await received(running);
    expect(animation).toMatchObject({ kind: "video", mime: "video/mp4" });
    expect(running.events.find(withMedia)).toMatchObject({ text: "@chorus_test_bot look", mentions: { bot: true } });
    send({ kind: "video", bytes: sample.bytes, mime: sample.mime }, { as: "video_note" });
    const note = await received(running);
    // A round video: square, its side Telegram's `length`.
    expect(note).toMatchObject({ kind: "video", durationMs: 1000 });
    expect(note.width).toBe(note.height);
    expect(Buffer.from((await downloaded(running, note)).bytes).equals(Buffer.from(sample.bytes))).toBe(true);
  });

  it("a location, a venue and a contact card carry their data, with nothing to download", async () => {
    const running = await t.start();
    send({ kind: "location", location: { latitude: 52.520008, longitude: 13.404954 } });
    expect(await received(running)).toEqual({
      kind: "location",
      location: { latitude: 52.520008, longitude: 13.404954 },
    });
    send(
      { kind: "location", location: { latitude: 48.85837, longitude: 2.294481 } },
      {
        venue: { title: "Eiffel Tower", address: "Champ de Mars, Paris" },
      },
    );
    expect(await received(running)).toEqual({
      kind: "location",
      location: { latitude: 48.85837, longitude: 2.294481, name: "Eiffel Tower", address: "Champ de Mars, Paris" },
    });
    const vcard = "BEGIN:VCARD\nVERSION:3.0\nFN:Ada Lovelace\nTEL:+442079460958\nEND:VCARD";
    send({ kind: "contact", contact: { name: "Ada Lovelace", phones: ["+442079460958"], vcard } });
    expect(await received(running)).toEqual({
      kind: "contact",
      contact: { name: "Ada Lovelace", phones: ["+442079460958"], vcard },
    });
  });
});

describe("media in: download caps", () => {
  const t = telegramSession({}, { token: TOKEN, limits: { downloadBytes: 100 * KB } });
  const everything = (value: unknown) => inspect(value, { depth: 12, showHidden: true, breakLength: Infinity });
  const noToken = (running: RunningChannel, error: unknown) => {
    const reported = [everything(error), everything(running.instance.status()), everything(running.logs.records)];
    for (const text of reported) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(TOKEN.split(":")[1]);
    }
  };

  it("a size Telegram states over maxBytes: E_TOO_LARGE before anything is asked or downloaded", async () => {
    const running = await t.start();
    t.fake.userSendsMedium({
      chatId: GROUP,
      from: ANN,
      sample: { kind: "file", bytes: large("file", 80 * KB), mime: "application/pdf" },
    });
    const attachment = await received(running);
    const error = await running.instance.download?.(attachment, { maxBytes: 64 * KB }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_TOO_LARGE", message: expect.stringContaining("64 KB") });
    expect(t.fake.server.requestsTo("POST", /\/getFile$/)).toEqual([]);
    expect(t.fake.files.bytesServed).toBe(0);
    noToken(running, error);
  });

  it("a server that lies about the size (and sends no length): the download stops at maxBytes, far short of the file", async () => {
    const running = await t.start();
    // Larger than what loopback's socket buffers take in at once, made as it is served (never held whole).
    const size = 64 * 1024 * KB;
    const { bytes, mime } = sampleMedium("file");
    t.fake.userSendsMedium({
      chatId: GROUP,
      from: ANN,
      sample: { kind: "file", bytes, mime, filename: "big.pdf" },
      generatedSize: size,
      declaredSize: 10 * KB,
    });
    const attachment = await received(running);
    expect(attachment.size).toBe(10 * KB);
    const error = await downloaded(running, attachment, 64 * KB).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_TOO_LARGE", message: expect.stringContaining("is over 64 KB") });
    expect(t.fake.files.bytesServed).toBeLessThan(size / 4);
    noToken(running, error);
  });

  it("Telegram's own 20 MB getFile limit (here 100 KB): its 'file is too big' answer is E_TOO_LARGE naming the limit", async () => {
    const running = await t.start();
    t.fake.userSendsMedium({
      chatId: GROUP,
      from: ANN,
      sample: { kind: "file", bytes: large("file", 150 * KB), mime: "application/pdf" },
    });
    const attachment = await received(running);
    const error = await running.instance.download?.(attachment, { maxBytes: 20 * 1024 * KB }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "E_TOO_LARGE",
      message: expect.stringContaining("is over 20 MB"),
      hint: expect.stringContaining("up to 20 MB (getFile)"),
    });
    const [getFile] = t.fake.server.requestsTo("POST", /\/getFile$/);
    expect(getFile?.status).toBe(400);
    expect(t.fake.files.bytesServed).toBe(0);
    noToken(running, error);
  });

  it("a file Telegram no longer has: a typed error without the file URL (it holds the token)", async () => {
    const running = await t.start();
    const error = await running.instance
      .download?.({ kind: "file", source: { fileId: "BQACAgIAAxkBAAIBGoneFile" } }, { maxBytes: KB })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "E_INVALID_INPUT",
      message: expect.stringContaining("wrong file_id or the file is temporarily unavailable"),
    });
    const notTelegrams = await running.instance
      .download?.({ kind: "file", source: { url: "x" } }, { maxBytes: KB })
      .catch((e: unknown) => e);
    expect(notTelegrams).toMatchObject({
      code: "E_INVALID_INPUT",
      message: "This file attachment has no Telegram file to download",
    });
    noToken(running, error);
  });
});
