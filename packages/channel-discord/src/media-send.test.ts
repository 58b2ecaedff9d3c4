import { streamOf } from "@chorus/channel-kit";
import {
  type MessageRef,
  mediaOf,
  type OutboundMedium,
  type OutboundMessage,
  planMedia,
  type UploadKind,
} from "@chorus/core";
import { type RunningChannel, sampleMedium, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discordChannel } from "./index.js";
import { ANN, FAST, startFakeDiscord } from "./test-support.test-util.js";
import type { FakeDiscord, FakeDiscordOptions, FakeMessage } from "./testing/index.js";

const MiB = 1024 * 1024;
const SEND = /\/api\/v10\/channels\/200\/messages$/;
let fake: FakeDiscord;
let channel: RunningChannel;

async function start(options: FakeDiscordOptions = {}): Promise<void> {
  fake = await startFakeDiscord(options);
  // Uploads of megabytes may take longer than FAST's one second on a busy machine.
  channel = await startChannel(discordChannel, { config: fake.config({ ...FAST, timeoutMs: 30_000 }) });
}
beforeEach(() => start());
afterEach(async () => {
  await channel.stop();
  await fake.close();
});

/** A medium to send: the sample of `kind`, or `size` bytes of a pattern under its name and type. */
function medium(kind: UploadKind, size?: number, name?: string): OutboundMedium & { bytes: Uint8Array } {
  const sample = sampleMedium(kind);
  const bytes = size === undefined ? sample.bytes : patterned(size);
  const filename = name ?? sample.filename;
  return { kind, mime: sample.mime, filename, size: bytes.byteLength, bytes, open: () => streamOf(bytes) };
}

/** `size` bytes of a pattern that starts anew with each size, built a block at a time. */
function patterned(size: number): Uint8Array {
  const block = Uint8Array.from({ length: 4096 }, (_, i) => (i * 31 + size) % 251);
  const bytes = new Uint8Array(size);
  for (let offset = 0; offset < size; offset += block.length) bytes.set(block.subarray(0, size - offset), offset);
  return bytes;
}

/** Whether two byte strings are the same (vitest's deep equality is slow on megabytes). */
const same = (a: Uint8Array | undefined, b: Uint8Array | undefined) =>
  a !== undefined && b !== undefined && Buffer.from(a).equals(Buffer.from(b));

/** Plans a send with core's `planMedia` as the gateway does, then calls `send` once per planned message. */
async function sendPlanned(text: string, media: OutboundMedium[], replyTo?: MessageRef) {
  const plan = planMedia(
    { text, media: media.map(({ kind, size, mime, filename }) => ({ kind, size, mime, filename })) },
    mediaOf(discordChannel.capabilities),
    { maxBytes: 25 * MiB, channel: "Discord" },
  );
  const refs: MessageRef[] = [];
  for (const [i, planned] of plan.messages.entries()) {
    const message: OutboundMessage = {
      text: planned.text ?? "",
      media: planned.media.map((item) => ({
        ...(media[item.index] as OutboundMedium),
        kind: item.as,
        ...(item.caption !== undefined ? { caption: item.caption } : {}),
      })),
      ...(i === 0 && replyTo ? { replyTo } : {}),
    };
    refs.push(await channel.instance.send({ id: "200" }, message));
  }
  return { plan, refs };
}

const stored = (ref: MessageRef): FakeMessage => fake.state.messages.get(ref.messageId) as FakeMessage;
const botMessages = () => fake.messagesIn("200").filter((m) => m.author.id === fake.bot.id);

describe("Discord media out", () => {
  it("an image, a video, an audio and a file in one message, its text as content: files[n] and payload_json as Discord reads them", async () => {
    const media = (["image", "video", "audio", "file"] as const).map((kind) => medium(kind));
    const { plan, refs } = await sendPlanned("here is everything", media);
    expect(plan.sentAs).toEqual(["image", "video", "audio", "file"]);
    expect(refs).toHaveLength(1);
    const message = stored(refs[0] as MessageRef);
    expect(message.content).toBe("here is everything");
    expect(message.attachments.map((a) => [a.filename, a.content_type, a.size])).toEqual(
      media.map((m) => [m.filename, m.mime, m.size]),
    );
    for (const [i, attachment] of message.attachments.entries()) expect(attachment.bytes).toEqual(media[i]?.bytes);
    expect(message.attachments[0]).toMatchObject({ width: 16, height: 16 });
    // What went on the wire (as discord.js' own FormData had it): one files[n] part per medium, and the body as payload_json.
    const [request] = fake.server.requestsTo("POST", SEND);
    expect(request?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    const form = request?.body as Record<string, unknown>;
    expect(Object.keys(form).sort()).toEqual(["files[0]", "files[1]", "files[2]", "files[3]", "payload_json"]);
    expect(form["files[1]"]).toEqual({ filename: "video.mp4", type: "video/mp4", size: media[1]?.size });
    expect(JSON.parse(form.payload_json as string)).toMatchObject({
      content: "here is everything",
      attachments: media.map((m, id) => ({ id, filename: m.filename })),
    });
  });

  it("the REST answer and the gateway carry the attachment objects Discord returns (signed CDN URLs, width/height of images)", async () => {
    const { refs } = await sendPlanned("", [medium("image"), medium("file")]);
    const fetched = (await fetch(`${fake.url}/api/v10/channels/200/messages/${refs[0]?.messageId}`, {
      headers: { authorization: `Bot ${fake.token}` },
    }).then((r) => r.json())) as { attachments: Record<string, unknown>[]; content: string };
    expect(fetched.content).toBe("");
    const [image, file] = fetched.attachments;
    expect(Object.keys(image ?? {}).sort()).toEqual(
      ["content_type", "filename", "height", "id", "proxy_url", "size", "url", "width"].sort(),
    );
    expect(image?.url).toMatch(
      new RegExp(`^${fake.cdn.url}/attachments/200/\\d+/image\\.png\\?ex=[0-9a-f]+&is=[0-9a-f]+&hm=[0-9a-f]{64}&$`),
    );
    expect(file).not.toHaveProperty("width");
    const bytes = new Uint8Array(await (await fetch(file?.url as string)).arrayBuffer());
    expect(bytes).toEqual(sampleMedium("file").bytes);
  });

  it("a sticker goes out as an image, a voice note as audio (rule 3), together as files, bytes unchanged", async () => {
    const sticker = medium("sticker");
    const voice = medium("voice");
    const { plan, refs } = await sendPlanned("", [sticker, voice]);
    expect(plan.sentAs).toEqual(["image", "audio"]);
    const message = stored(refs[0] as MessageRef);
    expect(message.attachments.map((a) => [a.filename, a.content_type])).toEqual([
      ["sticker.webp", "image/webp"],
      ["voice.ogg", "audio/ogg"],
    ]);
    expect(message.attachments[0]).toMatchObject({ bytes: sticker.bytes, width: 512, height: 512 });
    expect(message.attachments[1]?.bytes).toEqual(voice.bytes);
    expect(message.flags).toBe(0); // not a voice message: Discord shows an audio file
  });

  it("twelve images: core's plan makes 10 + 2 messages, the caption on the first, the reply on the first", async () => {
    const target = fake.userSends({ channelId: "200", author: ANN, content: "photos please" });
    const replyTo = await channel.instance.resolveMessageRef({ id: "200" }, target.id);
    const media = Array.from({ length: 12 }, (_, i) => medium("image", 100 + i, `photo-${i}.png`));
    const { refs } = await sendPlanned("the album", media, replyTo);
    expect(refs.map((ref) => stored(ref).attachments.length)).toEqual([10, 2]);
    const [first, second] = refs.map(stored);
    expect([first?.content, second?.content]).toEqual(["the album", ""]);
    expect(first?.message_reference?.message_id).toBe(target.id);
    expect(second?.message_reference).toBeUndefined();
    const held = refs.flatMap((ref) => stored(ref).attachments.map((a) => a.bytes));
    expect(held).toEqual(media.map((m) => m.bytes));
  });

  it("three files of 9 MiB: over Discord's 25 MiB request limit together, so the plan sends 2 + 1, each accepted", {
    timeout: 30_000,
  }, async () => {
    const media = [0, 1, 2].map((i) => medium("file", 9 * MiB, `part-${i}.bin`));
    const { refs } = await sendPlanned("", media);
    expect(refs.map((ref) => stored(ref).attachments.map((a) => a.filename))).toEqual([
      ["part-0.bin", "part-1.bin"],
      ["part-2.bin"],
    ]);
    expect(fake.server.requestsTo("POST", SEND).map((r) => r.status)).toEqual([200, 200]);
    const held = refs.flatMap((ref) => stored(ref).attachments.map((a) => a.bytes));
    expect(held.map((bytes, i) => same(bytes, media[i]?.bytes))).toEqual([true, true, true]);
  });

  it("text over 2000 characters with media: the files travel with the first part", async () => {
    const text = `${"a".repeat(1500)}\n\n${"b".repeat(1500)}`;
    const { refs } = await sendPlanned(text, [medium("image")]);
    const sent = botMessages();
    expect(sent.map((m) => [m.content.length, m.attachments.length])).toEqual([
      [1500, 1],
      [1500, 0],
    ]);
    expect(refs[0]?.messageId).toBe(sent[0]?.id);
  });

  it("a 413 from Discord (40005, Request entity too large) is E_TOO_LARGE; the error holds no file bytes", async () => {
    await channel.stop();
    await fake.close();
    // Discord keeps limits the plugin cannot see (a server's own, a lowered default): here 1 MiB per file.
    await start({ uploadLimits: { fileBytes: MiB } });
    const big = medium("image", 2 * MiB);
    const error = await channel.instance.send({ id: "200" }, { text: "", media: [big] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_TOO_LARGE", details: { status: 413, code: 40005 } });
    expect(fake.server.requestsTo("POST", SEND).map((r) => r.status)).toEqual([413]);
    expect(botMessages()).toEqual([]);
    // discord.js keeps the request on its error: the file is named there, its bytes are not.
    const request = (error as { cause?: { requestBody?: { files?: unknown } } }).cause?.requestBody;
    expect(request?.files).toEqual([{ name: big.filename, contentType: "image/png", size: 2 * MiB }]);
  });

  it("a medium over 10 MiB handed to send directly is E_TOO_LARGE before any request", async () => {
    const over = medium("file", 10 * MiB + 1);
    await expect(channel.instance.send({ id: "200" }, { text: "x", media: [over] })).rejects.toMatchObject({
      code: "E_TOO_LARGE",
    });
    expect(fake.server.requestsTo("POST", SEND)).toEqual([]);
  });
});
