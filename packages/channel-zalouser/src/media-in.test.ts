import { collectBytes } from "@chorus/channel-kit";
import type { Attachment, InboundMessageEvent } from "@chorus/core";
import { sampleMedium } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type LinkedChannel, linkedChannel } from "./test-support.test-util.js";
import { ANN, TEAM } from "./testing/fixture.js";

let world: LinkedChannel;
afterEach(() => world?.close());

const MB = 1024 * 1024;
const download = async (attachment: Attachment | undefined, maxBytes = MB) => {
  const medium = await world.running.instance.download?.(attachment as Attachment, { maxBytes });
  return { mime: medium?.mime, bytes: await collectBytes(medium?.stream as ReadableStream<Uint8Array>, maxBytes, "t") };
};
const received = async (msgId: string): Promise<InboundMessageEvent> => world.inbound(msgId);

describe("media in: what people send, through zca-js's listener, downloaded from Zalo's CDN", () => {
  it("a photo with a caption in a group: the caption is the text, the photo an image with its size; download gives its bytes", async () => {
    world = await linkedChannel();
    const png = sampleMedium("image");
    const sent = await world.fake.personSendsMedium({
      from: ANN.id,
      group: TEAM,
      kind: "image",
      bytes: png.bytes,
      mime: png.mime,
      filename: "whiteboard.png",
      caption: "what does this say?",
      width: 16,
      height: 16,
    });
    const event = await received(sent.msgId);
    expect(event).toMatchObject({ text: "what does this say?", conversation: { id: TEAM, kind: "group" } });
    expect(event.attachments).toEqual([{ kind: "image", width: 16, height: 16, source: { url: sent.medium?.url } }]);
    expect(await download(event.attachments?.[0])).toEqual({ mime: "image/png", bytes: png.bytes });
  });

  it("a video: its duration and size from params; a file: its name and size", async () => {
    world = await linkedChannel();
    const mp4 = sampleMedium("video");
    const video = await world.fake.personSendsMedium({
      from: ANN.id,
      kind: "video",
      bytes: mp4.bytes,
      mime: mp4.mime,
      filename: "clip.mp4",
      durationMs: 1500,
    });
    expect((await received(video.msgId)).attachments).toEqual([
      { kind: "video", size: mp4.bytes.byteLength, durationMs: 1500, source: { url: video.medium?.url } },
    ]);
    const pdf = sampleMedium("file");
    const file = await world.fake.personSendsMedium({
      from: ANN.id,
      kind: "file",
      bytes: pdf.bytes,
      mime: pdf.mime,
      filename: "minutes.pdf",
    });
    const [attachment] = (await received(file.msgId)).attachments ?? [];
    expect(attachment).toMatchObject({ kind: "file", filename: "minutes.pdf", size: pdf.bytes.byteLength });
    expect(await download(attachment)).toEqual({ mime: "application/pdf", bytes: pdf.bytes });
  });

  it("a sticker: its image is found with getStickersDetail (sticker_detail), then downloaded", async () => {
    world = await linkedChannel();
    const webp = sampleMedium("sticker");
    const sent = await world.fake.personSendsMedium({
      from: ANN.id,
      kind: "sticker",
      bytes: webp.bytes,
      mime: webp.mime,
    });
    const [attachment] = (await received(sent.msgId)).attachments ?? [];
    expect(attachment).toEqual({ kind: "sticker", source: { sticker: sent.medium?.sticker } });
    expect(await download(attachment)).toEqual({ mime: "image/webp", bytes: webp.bytes });
    expect(world.fake.server.requestsTo("GET", "/api/message/sticker/sticker_detail")).toHaveLength(1);
  });

  it("downloads carry none of the session's cookies", async () => {
    world = await linkedChannel();
    const png = sampleMedium("image");
    const sent = await world.fake.personSendsMedium({ from: ANN.id, kind: "image", bytes: png.bytes, mime: png.mime });
    await download((await received(sent.msgId)).attachments?.[0]);
    const cdn = world.fake.server.requests.filter((r) => r.path.startsWith("/p/"));
    expect(cdn).toHaveLength(1);
    expect(cdn[0]?.headers.cookie).toBeUndefined();
    for (const secret of world.secrets) expect(JSON.stringify(cdn[0]?.headers)).not.toContain(secret);
  });
});

describe("media in: what is not downloaded", () => {
  it("a URL off Zalo's media hosts, or not https, is refused before any request", async () => {
    world = await linkedChannel();
    const before = world.fake.server.requests.length;
    for (const url of [
      "https://169.254.169.254/latest/meta-data",
      "http://photo-stal-9.zdn.vn/p/1/a.jpg",
      "https://zdn.vn.example.org/a.jpg",
    ]) {
      await expect(download({ kind: "image", source: { url } })).rejects.toMatchObject({
        code: "E_INVALID_INPUT",
        message: "Zalo image is not on Zalo's media hosts; it was not downloaded.",
      });
    }
    await expect(download({ kind: "file" })).rejects.toMatchObject({ code: "E_INVALID_INPUT" });
    expect(world.fake.server.requests.length).toBe(before);
  });

  it("a medium whose size is over maxBytes fails with E_TOO_LARGE before a byte is asked for", async () => {
    world = await linkedChannel();
    const url = world.fake.media.store("file", new Uint8Array(4096), "big.bin", "application/octet-stream").url;
    const before = world.fake.server.requests.length;
    await expect(download({ kind: "file", size: 4096, source: { url } }, 1024)).rejects.toMatchObject({
      code: "E_TOO_LARGE",
    });
    expect(world.fake.server.requests.length).toBe(before);
  });

  it("mediaHosts names the CDN domains: another one configured is downloaded from, the defaults then are not", async () => {
    world = await linkedChannel({ config: { mediaHosts: ["zcdn.example"] } });
    const png = sampleMedium("image");
    world.fake.media.serve("https://f1.zcdn.example/img/a.png", png.bytes, png.mime);
    expect(await download({ kind: "image", source: { url: "https://f1.zcdn.example/img/a.png" } })).toEqual({
      mime: "image/png",
      bytes: png.bytes,
    });
    const stored = world.fake.media.store("photo", png.bytes, "b.png", png.mime);
    await expect(download({ kind: "image", source: { url: stored.url } })).rejects.toMatchObject({
      code: "E_INVALID_INPUT",
    });
  });
});
