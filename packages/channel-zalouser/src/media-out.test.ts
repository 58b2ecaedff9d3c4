import type { OutboundMedium } from "@chorus/core";
import { sampleMedium, waitFor } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { ZALO_MAX_PHOTO_BYTES } from "./media.js";
import { type LinkedChannel, linkedChannel, paramsSentTo } from "./test-support.test-util.js";
import { ANN, TEAM } from "./testing/fixture.js";
import { md5 } from "./testing/index.js";

/** A medium to send: `bytes` under a kind, type and name. */
const medium = (kind: OutboundMedium["kind"], bytes: Uint8Array, mime: string, filename: string): OutboundMedium => ({
  kind,
  mime,
  filename,
  size: bytes.byteLength,
  open: () =>
    new ReadableStream({
      start(controller) {
        controller.enqueue(bytes.slice());
        controller.close();
      },
    }),
});
const sample = (kind: "image" | "voice" | "file" | "video") => {
  const { bytes, mime, filename } = sampleMedium(kind);
  return medium(kind === "video" ? "file" : kind, bytes, mime, filename);
};
/** `size` bytes that are not all alike. */
const bytesOf = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + 7) % 251);

let world: LinkedChannel;
afterEach(() => world?.close());

describe("media out, through zca-js's own upload calls to the fake Zalo", () => {
  it("a photo: photo_original/upload then photo_original/send, its caption the desc, its size from its header", async () => {
    world = await linkedChannel();
    const photo = { ...sample("image"), caption: "the chart" };
    const ref = await world.running.instance.send({ id: TEAM }, { text: "", media: [photo] });
    const sent = world.fake.state.messages.get(ref.messageId);
    expect(sent?.medium).toMatchObject({ kind: "photo", caption: "the chart", filename: "image.png" });
    expect(sent?.medium?.bytes).toEqual(sampleMedium("image").bytes);
    const [params] = paramsSentTo(world, "/api/group/photo_original/send");
    expect(params).toMatchObject({ grid: TEAM, desc: "the chart", width: 16, height: 16 });
    expect(ref).toMatchObject({
      conversationId: TEAM,
      fromBot: true,
      data: { msgType: "chat.photo", text: "the chart" },
    });
    expect(ref.data?.cliMsgId).toBe(String(params?.clientId));
    expect(world.fake.problems).toEqual([]);
  });

  it("a file in chunks, sent in any order at once: assembled byte for byte, its MD5 checked, sent once Zalo said file_done", async () => {
    world = await linkedChannel({ fake: { sharefile: { chunk_size_file: 64 * 1024 } } });
    const bytes = bytesOf(200 * 1024 + 17);
    const report = medium("file", bytes, "application/pdf", "report.pdf");
    const ref = await world.running.instance.send({ id: ANN.id }, { text: "", media: [report] });
    expect(world.fake.server.requestsTo("POST", "/api/message/asyncfile/upload")).toHaveLength(4);
    const [params] = paramsSentTo(world, "/api/message/asyncfile/msg");
    expect(params).toMatchObject({
      toid: ANN.id,
      fileName: "report.pdf",
      totalSize: bytes.byteLength,
      checksum: md5(bytes),
    });
    const sent = world.fake.state.messages.get(ref.messageId);
    expect(sent?.medium).toMatchObject({ kind: "file", filename: "report.pdf" });
    expect(sent?.medium?.bytes).toEqual(bytes);
    expect(ref.data).toMatchObject({ msgType: "share.file", threadKind: "user" });
    expect(world.fake.problems).toEqual([]);
  });

  it("a voice message: uploaded as a file, then sendVoice with its URL (zca-js's HEAD reaches the CDN without cookies)", async () => {
    world = await linkedChannel();
    const ref = await world.running.instance.send({ id: TEAM }, { text: "", media: [sample("voice")] });
    const sent = world.fake.state.messages.get(ref.messageId);
    expect(sent?.medium?.kind).toBe("voice");
    expect(sent?.medium?.bytes).toEqual(sampleMedium("voice").bytes);
    const [forward] = paramsSentTo(world, "/api/group/forward");
    expect(forward).toMatchObject({ grid: TEAM, msgType: 3 });
    expect(JSON.parse(String(forward?.msgInfo))).toEqual({
      voiceUrl: sent?.medium?.url,
      m4aUrl: sent?.medium?.url,
      fileSize: sampleMedium("voice").bytes.byteLength,
    });
    const heads = world.fake.server.requests.filter((r) => r.method === "HEAD");
    expect(heads).toHaveLength(1);
    expect(heads[0]?.headers.cookie).toBeUndefined();
    expect(ref.data).toMatchObject({ msgType: "chat.voice", text: "" });
  });

  it("text beside a file goes first as a message of its own (a file has no caption); a photo carries it", async () => {
    world = await linkedChannel();
    const ref = await world.running.instance.send({ id: TEAM }, { text: "minutes attached", media: [sample("file")] });
    expect(world.fake.botMessages(TEAM).map((m) => [m.text, m.medium?.kind])).toEqual([
      ["minutes attached", undefined],
      ["", "file"],
    ]);
    expect(world.fake.state.messages.get(ref.messageId)?.medium?.kind).toBe("file");
    await world.running.instance.send({ id: TEAM }, { text: "look", media: [sample("image")] });
    expect(world.fake.botMessages(TEAM).at(-1)?.medium?.caption).toBe("look");
    expect(world.fake.botMessages(TEAM)).toHaveLength(3);
  });

  it("text answering a message goes first, quoting it (a caption cannot quote); the photo follows without it", async () => {
    world = await linkedChannel();
    const question = await world.fake.personSends({ from: ANN.id, group: TEAM, text: "the chart?" });
    const trigger = await world.inbound(question.msgId);
    await world.running.instance.send({ id: TEAM }, { text: "here", replyTo: trigger.ref, media: [sample("image")] });
    expect(
      world.fake.botMessages(TEAM).map((m) => [m.text, m.quoteOf, m.medium?.kind, m.medium?.caption ?? ""]),
    ).toEqual([
      ["here", question.msgId, undefined, ""],
      ["", undefined, "photo", ""],
    ]);
  });

  it("a video and a file named like a photo go out as files, not through the photo upload", async () => {
    world = await linkedChannel();
    const clip = await world.running.instance.send({ id: TEAM }, { text: "", media: [sample("video")] });
    expect(world.fake.state.messages.get(clip.messageId)?.medium).toMatchObject({
      kind: "file",
      filename: "video.mp4",
    });
    const png = sampleMedium("image");
    const asFile = await world.running.instance.send(
      { id: TEAM },
      { text: "", media: [medium("file", png.bytes, png.mime, "scan.png")] },
    );
    expect(world.fake.state.messages.get(asFile.messageId)?.medium).toMatchObject({
      kind: "file",
      filename: "scan.png.file",
    });
    expect(world.fake.server.requestsTo("POST", "/api/group/photo_original/upload")).toHaveLength(0);
  });

  it("a GIF through zca-js's GIF call (upthumb, then gif), its caption first as text", async () => {
    world = await linkedChannel();
    const gif = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
    const ref = await world.running.instance.send(
      { id: ANN.id },
      { text: "", media: [{ ...medium("image", gif, "image/gif", "wave"), caption: "hi!" }] },
    );
    expect(world.fake.botMessages(ANN.id).map((m) => [m.text, m.medium?.kind])).toEqual([
      ["hi!", undefined],
      ["", "gif"],
    ]);
    expect(world.fake.state.messages.get(ref.messageId)?.medium?.bytes).toEqual(new Uint8Array(gif));
    expect(ref.data).toMatchObject({ msgType: "chat.gif" });
    // Its params travel in the query (the body is the GIF): its name, size and header's dimensions.
    const [gifCall] = world.fake.server.requestsTo("POST", "/api/message/gif");
    const enk = [...world.fake.state.sessions.values()][0]?.enk ?? "";
    expect(JSON.parse(world.decrypt(String(gifCall?.query.params), enk))).toMatchObject({
      toid: ANN.id,
      fileName: "wave.gif",
      totalSize: gif.byteLength,
      width: 1,
      height: 1,
    });
    expect(world.fake.problems).toEqual([]);
  });
});

describe("media out: limits and failures, nothing sent", () => {
  const nothingSent = () => {
    expect(world.fake.botMessages(TEAM)).toEqual([]);
    expect(world.fake.server.requests.filter((r) => r.path.includes("upload"))).toEqual([]);
  };

  it("a photo over the declared 10 MB is refused before it is read", async () => {
    world = await linkedChannel();
    let opened = false;
    const huge = {
      ...sample("image"),
      size: ZALO_MAX_PHOTO_BYTES + 1,
      open: () => {
        opened = true;
        return sample("image").open();
      },
    };
    await expect(world.running.instance.send({ id: TEAM }, { text: "", media: [huge] })).rejects.toMatchObject({
      code: "E_TOO_LARGE",
    });
    expect(opened).toBe(false);
    nothingSent();
  });

  it("the session's own limits (what Zalo handed out at login): a larger file E_TOO_LARGE, a refused extension E_UNSUPPORTED", async () => {
    world = await linkedChannel({ fake: { sharefile: { max_size_share_file_v3: 1, restricted_ext_file: ["exe"] } } });
    const big = medium("file", bytesOf(1024 * 1024 + 1), "application/zip", "big.zip");
    await expect(world.running.instance.send({ id: TEAM }, { text: "", media: [big] })).rejects.toMatchObject({
      code: "E_TOO_LARGE",
      hint: expect.stringContaining("1 MB (the limit Zalo handed out at login)"),
    });
    const exe = medium("file", bytesOf(10), "application/octet-stream", "setup.exe");
    await expect(world.running.instance.send({ id: TEAM }, { text: "", media: [exe] })).rejects.toMatchObject({
      code: "E_UNSUPPORTED",
    });
    nothingSent();
  });

  it("an upload Zalo never confirms (no file_done) fails after uploadTimeoutMs, and no message is sent", async () => {
    world = await linkedChannel({ config: { uploadTimeoutMs: 1_000 }, fake: { fileDoneDelayMs: 60_000 } });
    await expect(
      world.running.instance.send({ id: TEAM }, { text: "", media: [sample("file")] }),
    ).rejects.toMatchObject({
      code: "E_PLATFORM",
      message: expect.stringContaining('Zalo did not confirm the upload of "file.pdf" within 1000 ms'),
    });
    await waitFor(() => world.fake.server.requestsTo("POST", "/api/group/asyncfile/upload").length === 1);
    expect(world.fake.server.requestsTo("POST", "/api/group/asyncfile/msg")).toEqual([]);
    expect(world.fake.botMessages(TEAM)).toEqual([]);
  });
});
