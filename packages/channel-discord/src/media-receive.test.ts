import { collectBytes } from "@chorus/channel-kit";
import type { Attachment, InboundEvent, InboundMessageEvent } from "@chorus/core";
import { type RunningChannel, sampleMedium, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { photoAndFiles, stickers, voiceMessage } from "./fixtures/media.js";
import { discordChannel } from "./index.js";
import { ANN, FAST, startFakeDiscord } from "./test-support.test-util.js";
import type { FakeDiscord } from "./testing/index.js";

let fake: FakeDiscord;
let channel: RunningChannel;

beforeEach(async () => {
  fake = await startFakeDiscord();
  channel = await startChannel(discordChannel, { config: fake.config(FAST) });
});
afterEach(async () => {
  await channel.stop();
  await fake.close();
});

const message =
  (id: string) =>
  (e: InboundEvent): e is InboundMessageEvent =>
    e.type === "message" && e.ref.messageId === id;
const cdnRequests = () => fake.cdn.server.requests;

/** The one attachment of the message `id`, once it was emitted. */
async function attachmentOf(id: string): Promise<Attachment> {
  const [attachment, ...more] = (await channel.waitForEvent(message(id))).attachments ?? [];
  if (!attachment || more.length > 0) throw new Error(`message ${id} should carry one attachment`);
  return attachment;
}

/** `instance.download`, read whole under `maxBytes` (the gateway's cap). */
async function download(attachment: Attachment, maxBytes = 25 * 1024 * 1024) {
  const medium = await channel.instance.download?.(attachment, { maxBytes });
  if (!medium) throw new Error("the instance has no download");
  return { ...medium, bytes: await collectBytes(medium.stream, maxBytes, "the test's download") };
}

describe("Discord media in, from the payloads Discord documents", () => {
  it("attachments: content_type → mime and kind (else by extension), size, name, width/height, the CDN URLs as source", async () => {
    fake.dispatch("MESSAGE_CREATE", photoAndFiles);
    const event = await channel.waitForEvent(message(photoAndFiles.id));
    expect(event.text).toBe("the plan, and the photo of the whiteboard");
    const [photo, pdf, mp3] = photoAndFiles.attachments;
    expect(event.attachments).toEqual([
      {
        kind: "image",
        mime: "image/png",
        size: 48213,
        filename: "whiteboard.png",
        width: 1280,
        height: 960,
        source: { url: photo?.url, proxyUrl: photo?.proxy_url, id: photo?.id },
      },
      {
        kind: "file",
        mime: "application/pdf",
        size: 120448,
        filename: "plan.pdf",
        source: { url: pdf?.url, proxyUrl: pdf?.proxy_url, id: pdf?.id },
      },
      // No content_type (it is optional): the kind comes from the extension, and no mime is claimed.
      {
        kind: "audio",
        size: 5120,
        filename: "notes.mp3",
        source: { url: mp3?.url, proxyUrl: mp3?.proxy_url, id: mp3?.id },
      },
    ]);
  });

  it("a voice message (IS_VOICE_MESSAGE) is one voice attachment with its duration in ms, and text ''", async () => {
    fake.dispatch("MESSAGE_CREATE", voiceMessage);
    const event = await channel.waitForEvent(message(voiceMessage.id));
    expect(event.text).toBe("");
    expect(event.attachments).toEqual([
      expect.objectContaining({ kind: "voice", mime: "audio/ogg", size: 20117, durationMs: 4820 }),
    ]);
  });

  it("sticker_items are sticker attachments at the CDN's stickers/<id>.<ext> (Lottie .json; GIF on the media proxy)", async () => {
    fake.dispatch("MESSAGE_CREATE", stickers);
    const event = await channel.waitForEvent(message(stickers.id));
    expect(event.text).toBe("");
    expect(event.attachments).toEqual([
      {
        kind: "sticker",
        filename: "Wave.json",
        source: { url: `${fake.cdn.url}/stickers/749054660769218631.json`, id: "749054660769218631" },
      },
      {
        kind: "sticker",
        filename: "dance.gif",
        source: { url: `${fake.cdn.mediaUrl}/stickers/1290000000000000301.gif`, id: "1290000000000000301" },
      },
    ]);
  });
});

describe("Discord media in, through the fake Discord, downloaded from its CDN", () => {
  it("an image, a video, an audio and a file in one message: each its kind, each download byte for byte", async () => {
    const samples = (["image", "video", "audio", "file"] as const).map(sampleMedium);
    const files = samples.map((s) => ({ bytes: s.bytes, filename: s.filename, contentType: s.mime }));
    const sent = fake.userSendsMedia({ channelId: "200", author: ANN, content: "four of them", files });
    const event = await channel.waitForEvent(message(sent.id));
    expect(event.text).toBe("four of them");
    expect(event.attachments?.map((a) => [a.kind, a.mime, a.filename, a.size])).toEqual(
      samples.map((s) => [s.kind, s.mime, s.filename, s.bytes.byteLength]),
    );
    expect(event.attachments?.[0]).toMatchObject({ width: 16, height: 16 });
    for (const [i, attachment] of (event.attachments ?? []).entries()) {
      const got = await download(attachment);
      expect(got.bytes).toEqual(samples[i]?.bytes);
      expect(got).toMatchObject({ mime: samples[i]?.mime, size: samples[i]?.bytes.byteLength });
    }
  });

  it("a voice message and a sticker arrive alone, with text '', and download byte for byte", async () => {
    const voice = sampleMedium("voice");
    const spoken = fake.userSendsVoice({ channelId: "200", author: ANN, bytes: voice.bytes, durationSecs: 0.5 });
    const note = await channel.waitForEvent(message(spoken.id));
    expect(note.text).toBe("");
    expect(note.attachments).toEqual([expect.objectContaining({ kind: "voice", mime: "audio/ogg", durationMs: 500 })]);
    expect((await download(note.attachments?.[0] as Attachment)).bytes).toEqual(voice.bytes);

    const png = sampleMedium("image").bytes;
    const gif = new TextEncoder().encode("GIF89a fake animation");
    fake.addSticker({ id: "1290000000000000401", name: "party", format_type: 2, bytes: png });
    fake.addSticker({ id: "1290000000000000402", name: "dance", format_type: 4, bytes: gif });
    const sent = fake.userSendsMedia({
      channelId: "200",
      author: ANN,
      stickerIds: ["1290000000000000401", "1290000000000000402"],
    });
    const event = await channel.waitForEvent(message(sent.id));
    expect(event.attachments?.map((a) => [a.kind, a.filename])).toEqual([
      ["sticker", "party.png"],
      ["sticker", "dance.gif"],
    ]);
    const [apng, animated] = event.attachments ?? [];
    expect(await download(apng as Attachment)).toMatchObject({ bytes: png, mime: "image/png" });
    expect(await download(animated as Attachment)).toMatchObject({ bytes: gif, mime: "image/gif" });
    expect(cdnRequests().at(-1)?.path).toBe("/media/stickers/1290000000000000402.gif");
  });

  it("a download past its cap fails with E_TOO_LARGE from the Content-Length, and the CDN serves far less", async () => {
    const bytes = new Uint8Array(12 * 1024 * 1024).fill(7);
    const sent = fake.userSendsMedia({ channelId: "200", author: ANN, files: [{ bytes, filename: "big.bin" }] });
    const attachment = await attachmentOf(sent.id);
    await expect(download(attachment, 1024 * 1024)).rejects.toMatchObject({
      code: "E_TOO_LARGE",
      message: expect.not.stringContaining(fake.cdn.url),
    });
    expect(fake.cdn.bytesServed).toBeLessThan(bytes.byteLength / 2);
  });

  it("an expired signed URL (the CDN answers 404) is refreshed once with POST /attachments/refresh-urls, then downloaded", async () => {
    const image = sampleMedium("image");
    const sent = fake.userSendsMedia({
      channelId: "200",
      author: ANN,
      files: [{ bytes: image.bytes, filename: "later.png", contentType: image.mime }],
    });
    const attachment = await attachmentOf(sent.id);
    fake.expireAttachmentUrls();
    expect((await download(attachment)).bytes).toEqual(image.bytes);
    expect(cdnRequests().map((r) => r.status)).toEqual([404, 200]);
    const refreshes = fake.server.requestsTo("POST", "/api/v10/attachments/refresh-urls");
    expect(refreshes.map((r) => r.body)).toEqual([{ attachment_urls: [(attachment.source as { url: string }).url] }]);
    expect(refreshes[0]?.headers.authorization).toBe(`Bot ${fake.token}`);
    const [expired, fresh] = cdnRequests().map((r) => r.query.ex as string);
    expect(Number.parseInt(fresh as string, 16)).toBeGreaterThan(Number.parseInt(expired as string, 16));
  });

  it("an attachment gone for good (404 after the refresh) or a missing sticker is E_MESSAGE_NOT_FOUND; a URL off the CDN is refused unfetched", async () => {
    const sent = fake.userSendsMedia({
      channelId: "200",
      author: ANN,
      files: [{ bytes: new Uint8Array([1, 2, 3]), filename: "gone.bin" }],
    });
    const attachment = await attachmentOf(sent.id);
    fake.state.attachments.clear();
    await expect(download(attachment)).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    // A sticker's URL is not signed: nothing to refresh.
    const sticker = {
      kind: "sticker" as const,
      source: { url: `${fake.cdn.url}/stickers/1290000000000000499.png`, id: "1290000000000000499" },
    };
    await expect(download(sticker)).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    expect(fake.server.requestsTo("POST", "/api/v10/attachments/refresh-urls")).toHaveLength(1);
    const elsewhere = {
      ...attachment,
      source: { url: "http://127.0.0.1:9/attachments/1/2/x", id: "2" },
    };
    const before = cdnRequests().length;
    await expect(download(elsewhere)).rejects.toMatchObject({ code: "E_INVALID_INPUT" });
    expect(cdnRequests()).toHaveLength(before);
  });

  it("no request to the CDN carries the bot token, in any header or the URL", async () => {
    const image = sampleMedium("image");
    const sent = fake.userSendsMedia({
      channelId: "200",
      author: ANN,
      files: [{ bytes: image.bytes, filename: "a.png", contentType: image.mime }],
    });
    const attachment = await attachmentOf(sent.id);
    fake.expireAttachmentUrls();
    await download(attachment);
    expect(cdnRequests().length).toBeGreaterThan(0);
    for (const request of cdnRequests()) {
      expect(request.headers.authorization).toBeUndefined();
      expect(JSON.stringify({ headers: request.headers, path: request.path, query: request.query })).not.toContain(
        fake.token,
      );
    }
  });

  it("without the MESSAGE_CONTENT intent a guild message arrives without its attachments (as Discord sends it)", async () => {
    await channel.stop();
    channel = await startChannel(discordChannel, { config: fake.config({ ...FAST, messageContent: false }) });
    const image = sampleMedium("image");
    const sent = fake.userSendsMedia({
      channelId: "200",
      author: ANN,
      content: "look",
      files: [{ bytes: image.bytes, filename: "a.png", contentType: image.mime }],
    });
    const event = await channel.waitForEvent(message(sent.id));
    expect(event.text).toBe("");
    expect(event.attachments).toBeUndefined();
  });
});
