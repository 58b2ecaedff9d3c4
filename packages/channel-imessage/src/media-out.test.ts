import { streamOf } from "@chorus/channel-kit";
import type { OutboundMedium } from "@chorus/core";
import { type RunningChannel, sampleMedium, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { imessageChannel } from "./index.js";
import { BLUEBUBBLES_MAX_UPLOAD_BYTES } from "./media.js";
import { createFakeBlueBubbles, type FakeBlueBubbles } from "./testing/index.js";

const GROUP = "iMessage;+;chat42";
const ANN = "+15550001111";
const png = sampleMedium("image");
const pdf = sampleMedium("file");
const mp3 = sampleMedium("audio");
let fake: FakeBlueBubbles;
let running: RunningChannel | undefined;

beforeEach(async () => {
  fake = createFakeBlueBubbles({ maxFileBytes: 4096 });
  await fake.start();
  fake.addChat({ guid: GROUP, displayName: "Team", participants: [ANN] });
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await fake.close();
});

/** A medium of the sample's bytes; `opened` counts how often its bytes were read. */
function medium(
  sample: { bytes: Uint8Array; mime: string; filename: string },
  kind: OutboundMedium["kind"],
  extra: { caption?: string; filename?: string } = {},
): OutboundMedium & { opened: number } {
  const out = {
    kind,
    mime: sample.mime,
    filename: extra.filename ?? sample.filename,
    size: sample.bytes.byteLength,
    ...(extra.caption !== undefined ? { caption: extra.caption } : {}),
    opened: 0,
    open: () => {
      out.opened++;
      return streamOf(sample.bytes);
    },
  };
  return out;
}

const start = async (config: Record<string, unknown> = {}) => {
  running = await startChannel(imessageChannel, { config: fake.config(config) });
  return running.instance;
};
const botMessages = () => fake.messagesIn(GROUP).filter((m) => m.isFromMe);
const calls = () =>
  fake.server.requests
    .filter((r) => r.path.startsWith("/api/v1/message/") || r.path === "/api/v1/attachment/upload")
    .map((r) => r.path.replace("/api/v1", ""));
const form = (path: string) =>
  fake.server.requestsTo("POST", `/api/v1${path}`).map((r) => r.body as Record<string, unknown>);

describe("iMessage media out with the Private API", () => {
  it("a photo with its caption is one iMessage: uploaded, then /message/multipart with the photo and the text", async () => {
    const instance = await start();
    const ref = await instance.send(
      { id: GROUP },
      { text: "", media: [medium(png, "image", { caption: "our chart" })] },
    );
    expect(calls()).toEqual(["/attachment/upload", "/message/multipart"]);
    const [body] = form("/message/multipart");
    expect(body).toEqual({
      chatGuid: GROUP,
      tempGuid: expect.stringMatching(/^temp-/u),
      parts: [
        { partIndex: 0, attachment: expect.stringMatching(/^[\w-]+\/image\.png$/u), name: "image.png" },
        { partIndex: 1, text: "our chart" },
      ],
    });
    expect(botMessages()).toHaveLength(1);
    expect(ref.messageId).toBe(botMessages()[0]?.guid);
    expect(fake.shown(ref.messageId)).toEqual({
      files: [{ kind: "image", bytes: png.bytes, filename: "image.png", mimeType: "image/png" }],
      text: "our chart",
    });
    await fake.settled();
    expect(running?.events).toEqual([]); // its echo is the bot's own
  });

  it("several files with the message's text: one iMessage, in order, the text before the first file's caption", async () => {
    const instance = await start();
    const media = [medium(png, "image", { caption: "the chart" }), medium(pdf, "file", { caption: "the report" })];
    const ref = await instance.send({ id: GROUP }, { text: "Here you go", media });
    expect(fake.shown(ref.messageId)).toEqual({
      files: [
        { kind: "image", bytes: png.bytes, filename: "image.png", mimeType: "image/png" },
        { kind: "file", bytes: pdf.bytes, filename: pdf.filename, mimeType: "application/pdf" },
      ],
      text: "Here you go\n\nthe chartthe report",
    });
    const parts = (form("/message/multipart")[0]?.parts ?? []) as object[];
    expect(parts.map((part) => Object.keys(part))).toEqual([
      ["partIndex", "attachment", "name"],
      ["partIndex", "text"],
      ["partIndex", "attachment", "name"],
      ["partIndex", "text"],
    ]);
  });

  it("one file without a caption is one /message/attachment, streamed once, its name a plain file name", async () => {
    const instance = await start();
    const photo = medium(png, "image", { filename: "../../etc/chart.png" });
    await instance.send({ id: GROUP }, { text: "", media: [photo] });
    expect(calls()).toEqual(["/message/attachment"]);
    expect(form("/message/attachment")).toEqual([
      {
        chatGuid: GROUP,
        tempGuid: expect.stringMatching(/^temp-/u),
        name: ".._.._etc_chart.png",
        method: "private-api",
        attachment: { filename: ".._.._etc_chart.png", type: "image/png", size: png.bytes.byteLength },
      },
    ]);
    expect(photo.opened).toBe(1);
    expect(fake.shown(botMessages()[0]?.guid ?? "")?.files.map((f) => f.bytes)).toEqual([png.bytes]);
  });

  it("a voice note is an audio message (isAudioMessage), an MP3 named .mp3 for the server to make it CAF", async () => {
    const instance = await start();
    const ref = await instance.send({ id: GROUP }, { text: "", media: [medium(mp3, "voice", { filename: "note" })] });
    expect(form("/message/attachment")[0]).toMatchObject({
      name: "note.mp3",
      method: "private-api",
      isAudioMessage: "true",
    });
    expect(fake.shown(ref.messageId)?.files).toEqual([
      { kind: "voice", bytes: mp3.bytes, filename: "note.mp3", mimeType: "audio/mpeg" },
    ]);
  });

  it("a reply with media answers the message inline (selectedMessageGuid, partIndex)", async () => {
    const instance = await start();
    const { guid } = fake.userSends({ chatGuid: GROUP, from: ANN, text: "send the chart" });
    const replyTo = await instance.resolveMessageRef({ id: GROUP }, guid);
    await instance.send({ id: GROUP }, { text: "", replyTo, media: [medium(png, "image", { caption: "here" })] });
    expect(form("/message/multipart")[0]).toMatchObject({ selectedMessageGuid: guid, partIndex: 0 });
    expect(botMessages()[0]?.threadOriginatorGuid).toBe(guid);
  });
});

describe("iMessage media out without the Private API", () => {
  it("apple-script: each file its own /message/attachment with a tempGuid, a caption a text sent before it", async () => {
    const instance = await start({ sendMethod: "apple-script" });
    const media = [medium(png, "image", { caption: "the chart" }), medium(mp3, "voice")];
    const ref = await instance.send({ id: GROUP }, { text: "", media });
    expect(calls()).toEqual(["/message/text", "/message/attachment", "/message/attachment"]);
    expect(form("/message/text")[0]).toMatchObject({ message: "the chart", method: "apple-script" });
    expect(form("/message/attachment").map((b) => [b.method, b.isAudioMessage, typeof b.tempGuid])).toEqual([
      ["apple-script", undefined, "string"],
      ["apple-script", undefined, "string"],
    ]);
    expect(botMessages().map((m) => fake.shown(m.guid)?.files.map((f) => f.kind))).toEqual([[], ["image"], ["audio"]]);
    expect(ref.messageId).toBe(botMessages()[0]?.guid);
  });

  it("auto, with the Private API disabled on the server: the same AppleScript sends, nothing refused", async () => {
    fake.state.privateApi = false;
    const instance = await start();
    await instance.send({ id: GROUP }, { text: "", media: [medium(png, "image", { caption: "the chart" })] });
    expect(calls()).toEqual(["/message/text", "/message/attachment"]);
    expect(form("/message/attachment")[0]?.method).toBe("apple-script");
  });
});

describe("iMessage media out: refusals", () => {
  it("a file over BlueBubbles' 1 GiB, or an empty one, is refused before anything is sent or read", async () => {
    const instance = await start();
    const huge = { ...medium(png, "file"), size: BLUEBUBBLES_MAX_UPLOAD_BYTES + 1 };
    const small = medium(png, "image");
    await expect(instance.send({ id: GROUP }, { text: "", media: [small, huge] })).rejects.toMatchObject({
      code: "E_TOO_LARGE",
    });
    const empty = { ...medium(png, "file"), size: 0 };
    await expect(instance.send({ id: GROUP }, { text: "", media: [empty] })).rejects.toMatchObject({
      code: "E_INVALID_INPUT",
    });
    expect(calls()).toEqual([]);
    expect(small.opened + huge.opened).toBe(0);
  });

  it("the server's own refusals keep its words: over its maxFileSize is E_TOO_LARGE, a lost helper E_UNSUPPORTED", async () => {
    const instance = await start();
    const big = { bytes: new Uint8Array(5000).fill(1), mime: "application/pdf", filename: "big.pdf" };
    const tooBig = await instance.send({ id: GROUP }, { text: "", media: [medium(big, "file")] }).catch((e) => e);
    expect(tooBig).toMatchObject({ code: "E_TOO_LARGE", message: expect.stringContaining("maxFileSize exceeded") });
    fake.state.helperConnected = false;
    const lost = await instance
      .send({ id: GROUP }, { text: "", media: [medium(png, "image", { caption: "x" })] })
      .catch((e) => e);
    expect(lost).toMatchObject({ code: "E_UNSUPPORTED", hint: expect.stringContaining("Private API") });
    for (const error of [tooBig, lost]) expect(JSON.stringify(error)).not.toContain(fake.password);
    expect(botMessages()).toEqual([]);
  });
});
