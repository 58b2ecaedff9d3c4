import { streamOf } from "@chorus/channel-kit";
import { isChorusError, type OutboundMedium } from "@chorus/core";
import { sampleMedium } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { oggOpusFacts } from "./media-probe.js";
import { type FeishuHarness, startFeishu } from "./start.test-util.js";

let h: FeishuHarness;

afterEach(async () => {
  await h?.close();
});

/** A medium to send, read from `bytes` each time it is opened. */
function medium(kind: OutboundMedium["kind"], bytes: Uint8Array, mime: string, filename: string): OutboundMedium {
  return { kind, mime, filename, size: bytes.byteLength, open: () => streamOf(bytes.slice()) };
}
const sample = (kind: OutboundMedium["kind"], as = kind) => {
  const { bytes, mime, filename } = sampleMedium(kind);
  return medium(as, bytes, mime, filename);
};

const send = (media: OutboundMedium[], extra: { text?: string; idempotencyKey?: string } = {}) =>
  h.running.instance.send({ id: h.team.chat_id }, { text: extra.text ?? "", media, ...extra });
const fromBot = () => h.fake.messagesIn(h.team.chat_id).filter((m) => m.sender.sender_type === "app");
/** The multipart fields of the uploads Feishu got, files as `{ filename, type, size }`. */
const uploads = (path: "images" | "files") =>
  h.fake.server.requestsTo("POST", `/open-apis/im/v1/${path}`).map((r) => r.body as Record<string, unknown>);
const warnings = () => h.running.logs.at("warn").map((r) => r.message);
const bytesOf = async (stream: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(stream).arrayBuffer());

describe("sending media", () => {
  it("uploads an image (image_type message) and sends an image message naming its key, byte for byte", async () => {
    h = await startFeishu();
    const ref = await send([sample("image")]);
    expect(uploads("images")).toEqual([
      {
        image_type: "message",
        image: { filename: "image.png", type: "image/png", size: sampleMedium("image").bytes.length },
      },
    ]);
    const [message] = fromBot();
    expect(message?.msg_type).toBe("image");
    expect(JSON.parse(message?.body.content ?? "")).toEqual({ image_key: expect.stringMatching(/^img_v3_/u) });
    expect(ref.messageId).toBe(message?.message_id);
    expect(h.fake.media.messageMedia(ref.messageId).media).toEqual([
      { kind: "image", bytes: sampleMedium("image").bytes, filename: "image.png" },
    ]);
  });

  it("uploads a file with the file_type its name says (pdf, doc, …; stream otherwise) and sends a file message", async () => {
    h = await startFeishu();
    await send([sample("file")]);
    await send([medium("file", new Uint8Array([1, 2, 3]), "application/zip", "archive.zip")]);
    expect(uploads("files").map(({ file_type, file_name }) => [file_type, file_name])).toEqual([
      ["pdf", "file.pdf"],
      ["stream", "archive.zip"],
    ]);
    expect(fromBot().map((m) => m.msg_type)).toEqual(["file", "file"]);
    expect(h.fake.media.messageMedia(fromBot()[1]?.message_id ?? "").media[0]?.bytes).toEqual(
      new Uint8Array([1, 2, 3]),
    );
  });

  it("sends an Ogg/Opus voice note as an audio message, uploaded as opus with its duration", async () => {
    h = await startFeishu();
    const ref = await send([sample("voice")]);
    const [upload] = uploads("files");
    expect(upload).toMatchObject({ file_type: "opus", file_name: "voice.ogg" });
    const { durationMs } = await oggOpusFacts(streamOf(sampleMedium("voice").bytes));
    expect(upload?.duration).toBe(String(durationMs));
    expect(fromBot().map((m) => m.msg_type)).toEqual(["audio"]);
    expect(h.fake.media.messageMedia(ref.messageId).media).toMatchObject([
      { kind: "voice", bytes: sampleMedium("voice").bytes },
    ]);
  });

  it("converts a voice note in another format to Opus with ffmpeg before it sends it as an audio message", async () => {
    h = await startFeishu();
    const ref = await send([sample("audio", "voice")]);
    const [upload] = uploads("files");
    expect(upload).toMatchObject({ file_type: "opus", file_name: "audio.opus" });
    const [held] = h.fake.media.messageMedia(ref.messageId).media;
    const facts = await oggOpusFacts(streamOf(held?.bytes ?? new Uint8Array()));
    expect(facts.matches).toBe(true);
    expect(upload?.duration).toBe(String(facts.durationMs));
    expect(fromBot().map((m) => m.msg_type)).toEqual(["audio"]);
  });

  for (const [what, ffmpeg] of [
    ["ffmpeg: false", false],
    ["an ffmpeg that is not there", "/nonexistent/ffmpeg"],
  ] as const) {
    it(`without ffmpeg (${what}), sends such a voice note as a file and says so`, async () => {
      h = await startFeishu({ config: { ffmpeg } });
      const ref = await send([sample("audio", "voice")]);
      expect(fromBot().map((m) => m.msg_type)).toEqual(["file"]);
      expect(h.fake.media.messageMedia(ref.messageId).media).toMatchObject([
        { kind: "file", bytes: sampleMedium("audio").bytes, filename: "audio.mp3" },
      ]);
      expect(warnings()).toContainEqual(
        "feishu: sent as a file: Feishu's voice messages play Opus only, and ffmpeg is not configured or not found",
      );
    });
  }

  it("sends an MP4 as a media message: uploaded as mp4 with its duration, its first frame as the cover", async () => {
    h = await startFeishu();
    const ref = await send([sample("video")]);
    expect(uploads("files")).toMatchObject([{ file_type: "mp4", file_name: "video.mp4", duration: "1000" }]);
    const [cover] = uploads("images");
    expect(cover).toMatchObject({ image_type: "message", image: { filename: "cover.jpg", type: "image/jpeg" } });
    const [message] = fromBot();
    expect(message?.msg_type).toBe("media");
    const content = JSON.parse(message?.body.content ?? "") as { file_key: string; image_key: string };
    const coverBytes = h.fake.media.resources.get(content.image_key)?.bytes ?? new Uint8Array();
    expect([...coverBytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]); // a JPEG
    expect(h.fake.media.messageMedia(ref.messageId).media).toMatchObject([
      { kind: "video", bytes: sampleMedium("video").bytes },
    ]);
  });

  it("sends an MP4 without a cover where ffmpeg cannot take one", async () => {
    h = await startFeishu({ config: { ffmpeg: false } });
    await send([sample("video")]);
    expect(uploads("images")).toEqual([]);
    expect(JSON.parse(fromBot()[0]?.body.content ?? "")).toEqual({ file_key: expect.stringMatching(/^file_v3_/u) });
  });

  it("sends as files, saying why, an image Feishu cannot read (SVG) and a video that is no MP4", async () => {
    h = await startFeishu();
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const webm = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]);
    await send([medium("image", svg, "image/svg+xml", "logo.svg"), medium("video", webm, "video/webm", "clip.webm")]);
    expect(uploads("images")).toEqual([]);
    expect(fromBot().map((m) => m.msg_type)).toEqual(["file", "file"]);
    expect(warnings()).toEqual([
      "feishu: sent as a file: Feishu's image upload takes JPG, PNG, WEBP, GIF, BMP, ICO, TIFF and HEIC only",
      "feishu: sent as a file: Feishu's video messages play MP4 only",
    ]);
  });

  it("sends the text first, then each medium, the first replying; every message with its own uuid, none twice on a resend", async () => {
    h = await startFeishu();
    const question = await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "the report?" });
    const asked = h.running.events[0];
    const message = {
      text: "Here it is",
      media: [sample("file"), sample("image")],
      idempotencyKey: "outbox-42",
      ...(asked?.type === "message" ? { replyTo: asked.ref } : {}),
    };
    const ref = await h.running.instance.send({ id: h.team.chat_id }, message);
    await h.running.instance.send({ id: h.team.chat_id }, message);
    expect(fromBot().map((m) => [m.msg_type, m.parent_id])).toEqual([
      ["post", question.message_id],
      ["file", undefined],
      ["image", undefined],
    ]);
    expect(ref.messageId).toBe(fromBot()[0]?.message_id);
    const sent = h.fake.server.requests.filter(
      (r) => /\/messages(\/[^/]+\/reply)?$/u.test(r.path) && r.method === "POST",
    );
    expect(sent.map((r) => (r.body as { uuid: string }).uuid)).toEqual([
      "outbox-42-0",
      "outbox-42-1",
      "outbox-42-2",
      "outbox-42-0",
      "outbox-42-1",
      "outbox-42-2",
    ]);
  });

  it("gives every message its own uuid of at most 50 characters, also for a key too long to fit", async () => {
    h = await startFeishu();
    await send([sample("file"), sample("image")], { idempotencyKey: `k${"x".repeat(59)}` });
    const uuids = h.fake.server
      .requestsTo("POST", "/open-apis/im/v1/messages")
      .map((r) => (r.body as { uuid: string }).uuid);
    expect(uuids).toHaveLength(2);
    expect(new Set(uuids).size).toBe(2);
    expect(uuids.every((uuid) => uuid.length <= 50)).toBe(true);
    expect(fromBot().map((m) => m.msg_type)).toEqual(["file", "image"]);
  });

  it("sends a caption or a location handed to it directly as text, in order", async () => {
    h = await startFeishu();
    const captioned = { ...sample("image"), caption: "our logo" };
    await h.running.instance.send(
      { id: h.team.chat_id },
      { text: "", media: [captioned], location: { latitude: 31.2304, longitude: 121.4737, name: "Shanghai" } },
    );
    expect(fromBot().map((m) => [m.msg_type, h.fake.textOf(m).split("\n")[0]])).toEqual([
      ["post", "our logo"],
      ["image", ""],
      ["post", "Shanghai"],
    ]);
  });

  it("refuses an image over 10 MB before anything is read or sent, pointing to a file", async () => {
    h = await startFeishu();
    const huge: OutboundMedium = {
      kind: "image",
      mime: "image/png",
      filename: "huge.png",
      size: 10 * 1024 * 1024 + 1,
      open: () => {
        throw new Error("opened");
      },
    };
    const error = await send([sample("file"), huge]).catch((e: unknown) => e);
    expect(isChorusError(error) && [error.code, error.message, error.hint]).toEqual([
      "E_TOO_LARGE",
      '"huge.png" is over 10 MB.',
      "Feishu takes images of up to 10 MB; send it as a file (up to 30 MB).",
    ]);
    expect(h.fake.server.requests.filter((r) => r.method === "POST" && r.path.startsWith("/open-apis/im/"))).toEqual(
      [],
    );
  });

  it("maps Feishu's refusal of an upload to its meaning, and sends no message", async () => {
    h = await startFeishu({ fake: { limits: { maxFileBytes: 100 } } });
    const error = await send([sample("file")]).catch((e: unknown) => e);
    expect(isChorusError(error) && error.code).toBe("E_TOO_LARGE");
    expect(String((error as Error).message)).toContain("code 234006");
    expect(fromBot()).toEqual([]);
    // The tenant token went with the upload; it is in no error or log line.
    const said = JSON.stringify([error, (error as Error).message, h.running.logs.records]);
    for (const token of h.fake.tokens.issued) expect(said).not.toContain(token);
  });

  it("uploads again with a fresh token when Feishu says the old one is no longer valid", async () => {
    h = await startFeishu();
    await send([sample("image")]);
    h.fake.tokens.expireAll();
    const ref = await send([sample("file")]);
    expect(h.fake.server.requestsTo("POST", "/open-apis/im/v1/files").map((r) => r.status)).toEqual([400, 200]);
    expect(
      await bytesOf(streamOf(h.fake.media.messageMedia(ref.messageId).media[0]?.bytes ?? new Uint8Array())),
    ).toEqual(sampleMedium("file").bytes);
  });
});
