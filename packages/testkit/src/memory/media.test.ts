import { collectBytes, streamOf } from "@chorus/channel-kit";
import { type InboundEvent, type InboundMessageEvent, mediaOf, type OutboundMedium } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningChannel, startChannel } from "../context.js";
import { sampleMedium } from "../media/samples.js";
import { createMemoryChannel } from "./channel.js";
import { createMemoryPlatform, type MemoryPlatform } from "./platform.js";

const ANN = { id: "u-ann", name: "Ann" };
const MB = 1024 * 1024;

let platform: MemoryPlatform;
let channel: RunningChannel;

beforeEach(async () => {
  platform = createMemoryPlatform();
  await platform.start();
  platform.addConversation({ id: "team", kind: "group", title: "Team", members: [ANN] });
  channel = await startChannel(createMemoryChannel(), {
    config: { baseUrl: platform.url, token: platform.token, pollWaitMs: 1000, retries: 0 },
  });
});

afterEach(async () => {
  await channel.stop();
  await platform.close();
});

/** A sample of `kind` as the gateway hands it to `send`. */
function outbound(kind: Parameters<typeof sampleMedium>[0], caption?: string): OutboundMedium {
  const { bytes, mime, filename } = sampleMedium(kind);
  return { kind, mime, filename, size: bytes.byteLength, open: () => streamOf(bytes), ...(caption ? { caption } : {}) };
}

const withAttachments = (e: InboundEvent): e is InboundMessageEvent =>
  e.type === "message" && (e.attachments?.length ?? 0) > 0;

describe("memory channel media: declared", () => {
  it("declares every kind both ways, captions, albums of 4 and the platform's upload limit", () => {
    expect(mediaOf(createMemoryChannel().capabilities)).toEqual({
      send: ["image", "video", "audio", "voice", "file", "sticker", "location"],
      receive: ["image", "video", "audio", "voice", "file", "sticker", "location", "contact"],
      maxSendBytes: 5 * MB,
      maxReceiveBytes: 10 * MB,
      caption: true,
      perMessage: 4,
    });
    expect(createMemoryChannel({ media: false }).capabilities.media).toBeUndefined();
  });
});

describe("memory channel media: sending", () => {
  it("uploads each medium as a raw streamed body, then posts the message by upload id with the captions", async () => {
    const ref = await channel.instance.send(
      { id: "team" },
      { text: "", media: [outbound("image", "The plan"), outbound("file")] },
    );
    const uploads = platform.server.requestsTo("POST", "/v1/uploads");
    expect(
      uploads.map((r) => [r.headers["content-type"], r.headers["content-length"], r.headers["x-filename"]]),
    ).toEqual([
      ["image/png", String(sampleMedium("image").bytes.byteLength), "image.png"],
      ["application/pdf", String(sampleMedium("file").bytes.byteLength), "file.pdf"],
    ]);
    const [post] = platform.server.requestsTo("POST", "/v1/conversations/:id/messages");
    expect(post?.body).toEqual({
      text: "",
      media: [
        { uploadId: "med1", kind: "image", caption: "The plan" },
        { uploadId: "med2", kind: "file" },
      ],
    });
    const shown = platform.messageMedia(ref.messageId);
    expect(shown.media.map((m) => [m.kind, m.filename, m.caption])).toEqual([
      ["image", "image.png", "The plan"],
      ["file", "file.pdf", undefined],
    ]);
    expect(shown.media[0]?.bytes).toEqual(sampleMedium("image").bytes);
    expect(shown.media[1]?.bytes).toEqual(sampleMedium("file").bytes);
  });

  it("sends a location as a pin", async () => {
    const ref = await channel.instance.send(
      { id: "team" },
      { text: "", location: { latitude: 1.5, longitude: -2.25 } },
    );
    expect(platform.messageMedia(ref.messageId)).toEqual({
      text: "",
      media: [],
      location: { latitude: 1.5, longitude: -2.25 },
    });
  });

  it("refuses a medium over the upload limit with E_TOO_LARGE before sending a byte", async () => {
    const big: OutboundMedium = { ...outbound("video"), size: 5 * MB + 1 };
    await expect(channel.instance.send({ id: "team" }, { text: "", media: [big] })).rejects.toMatchObject({
      code: "E_TOO_LARGE",
      message: '"video.mp4" is over 5 MB.',
    });
    expect(platform.server.requestsTo("POST", "/v1/uploads")).toEqual([]);
    expect(platform.botMessagesIn("team")).toEqual([]);
  });

  it("the platform keeps its own limits: 413 too_large for an upload over it, 400 too_many_media past four", async () => {
    const lying = await startChannel(createMemoryChannel({ id: "memory", media: { maxSendBytes: 6 * MB } }), {
      config: { baseUrl: platform.url, token: platform.token, pollWaitMs: 1000, retries: 0 },
    });
    try {
      const bytes = new Uint8Array(5 * MB + 1);
      const over: OutboundMedium = { ...outbound("file"), size: bytes.byteLength, open: () => streamOf(bytes) };
      await expect(lying.instance.send({ id: "team" }, { text: "", media: [over] })).rejects.toMatchObject({
        code: "E_TOO_LARGE",
      });
      const five = Array.from({ length: 5 }, () => outbound("image"));
      await expect(lying.instance.send({ id: "team" }, { text: "", media: five })).rejects.toMatchObject({
        code: "E_INVALID_INPUT",
        message: expect.stringContaining("too_many_media"),
      });
      expect(platform.botMessagesIn("team")).toEqual([]);
    } finally {
      await lying.stop();
    }
  });
});

describe("memory channel media: receiving", () => {
  it("emits what someone sends as attachments, and download streams the bytes as uploaded", async () => {
    const { kind, ...voice } = sampleMedium("voice");
    platform.userSendsMedium({ conversationId: "team", senderId: ANN.id, kind, ...voice, caption: "listen" });
    const event = await channel.waitForEvent(withAttachments);
    expect(event.text).toBe("listen");
    expect(event.attachments).toEqual([
      {
        kind: "voice",
        mime: "audio/ogg",
        size: voice.bytes.byteLength,
        filename: "voice.ogg",
        source: { mediaId: "med1" },
      },
    ]);
    const download = channel.instance.download;
    if (!download) throw new Error("no download");
    const got = await download(event.attachments?.[0] as never, { maxBytes: MB });
    expect(got).toMatchObject({ mime: "audio/ogg", size: voice.bytes.byteLength });
    expect(await collectBytes(got.stream, MB, "x")).toEqual(voice.bytes);
    expect(platform.bytesServed).toBe(voice.bytes.byteLength);
    const [request] = platform.server.requestsTo("GET", "/v1/media/:id");
    expect(request?.headers.authorization).toBe(`Bearer ${platform.token}`);
  });

  it("carries a location and a contact card; an unknown medium is E_MESSAGE_NOT_FOUND", async () => {
    platform.userSendsMedium({
      conversationId: "team",
      senderId: ANN.id,
      kind: "location",
      location: { latitude: 10, longitude: 20, name: "Here" },
    });
    platform.userSendsMedium({
      conversationId: "team",
      senderId: ANN.id,
      kind: "contact",
      contact: { name: "Bo", phones: ["+1 555"] },
    });
    await channel.waitForEvent((e) => withAttachments(e) && e.attachments?.[0]?.kind === "contact");
    expect(channel.events.filter(withAttachments).map((e) => e.attachments)).toEqual([
      [{ kind: "location", location: { latitude: 10, longitude: 20, name: "Here" } }],
      [{ kind: "contact", contact: { name: "Bo", phones: ["+1 555"] } }],
    ]);
    const download = channel.instance.download;
    await expect(download?.({ kind: "image", source: { mediaId: "med404" } }, { maxBytes: MB })).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
    });
    await expect(download?.({ kind: "image" }, { maxBytes: MB })).rejects.toMatchObject({ code: "E_INVALID_INPUT" });
  });

  it("stops a download past its cap with E_TOO_LARGE", async () => {
    const bytes = new Uint8Array(2 * MB);
    platform.userSendsMedium({ conversationId: "team", senderId: ANN.id, kind: "file", bytes, filename: "big.bin" });
    const event = await channel.waitForEvent(withAttachments);
    await expect(
      channel.instance.download?.(event.attachments?.[0] as never, { maxBytes: 1000 }),
    ).rejects.toMatchObject({ code: "E_TOO_LARGE", message: "memory medium med1 is 2 MB, over 1000 bytes." });
  });
});
