import type { OutboundMedium } from "@chorus/core";
import { sampleMedium } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { ANN } from "../fixtures/wire-messages.js";
import {
  messageEvent,
  openWireSession,
  WIRE_TEST_TIMEOUT,
  type WireSession,
  type WireSessionOptions,
} from "../fixtures/wire-session.js";
import { isOggOpus } from "./voice.js";

// What the bot sends, as the chat's phones read it: the media host's bytes at the message's
// direct path, decrypted with its media key and checked by the fake (MAC, hashes, length).
let s: WireSession | undefined;
const open = async (options: WireSessionOptions = {}) => {
  s = await openWireSession(options);
  return s;
};
afterEach(async () => {
  const problems = s?.fake.problems;
  await s?.close();
  s = undefined;
  expect(problems ?? []).toEqual([]);
});

/** A sample medium of `kind` as core hands it to `send`, its bytes opened anew each time. */
function outbound(
  kind: OutboundMedium["kind"],
  extra: Partial<OutboundMedium> & { bytes?: Uint8Array } = {},
): OutboundMedium {
  const sample = sampleMedium(kind);
  const { bytes = sample.bytes, ...rest } = extra;
  return {
    kind,
    mime: sample.mime,
    filename: sample.filename,
    size: bytes.byteLength,
    open: () => new Blob([bytes]).stream(),
    ...rest,
  };
}

/** The bot's messages in a chat, each with its medium as the fake reads it. */
const shown = (w: WireSession, chat: string) =>
  w.fake.botMessages(chat).map((message) => ({ message, medium: w.fake.mediumOf(message) }));

describe("sending media over the wire", () => {
  it(
    "a photo, a video and a document carry their caption (a document its file name), each a message of its own",
    async () => {
      const w = await open();
      const ref = await w.channel.instance.send(
        { id: w.ann.jid },
        {
          text: "",
          media: [
            outbound("image", { caption: "look" }),
            outbound("video", { caption: "and this" }),
            outbound("file", { filename: "report.pdf", caption: "the numbers" }),
          ],
        },
      );
      const sent = shown(w, w.ann.jid);
      expect(sent.map(({ message }) => message.id)[0]).toBe(ref.messageId);
      expect(sent.map(({ medium }) => [medium?.kind, medium?.caption, medium?.mimetype, medium?.fileName])).toEqual([
        ["image", "look", "image/png", undefined],
        ["video", "and this", "video/mp4", undefined],
        ["file", "the numbers", "application/pdf", "report.pdf"],
      ]);
      for (const [index, kind] of (["image", "video", "file"] as const).entries()) {
        expect(sent[index]?.medium?.bytes).toEqual(Buffer.from(sampleMedium(kind).bytes));
      }
      expect(w.fake.mediaUploads().map((upload) => upload.mmsType)).toEqual(["image", "video", "document"]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "audio carries no caption on WhatsApp: the caption goes right before it as text; a sticker is WebP",
    async () => {
      const w = await open();
      await w.channel.instance.send(
        { id: w.ann.jid },
        { text: "", media: [outbound("audio", { caption: "our song" })] },
      );
      await w.channel.instance.send({ id: w.ann.jid }, { text: "", media: [outbound("sticker")] });
      const sent = shown(w, w.ann.jid);
      expect(sent.map(({ message, medium }) => [message.type, message.text, medium?.kind])).toEqual([
        ["extendedTextMessage", "our song", undefined],
        ["audioMessage", undefined, "audio"],
        ["stickerMessage", undefined, "sticker"],
      ]);
      expect(sent[1]?.medium?.bytes).toEqual(Buffer.from(sampleMedium("audio").bytes));
      expect(sent[2]?.medium).toMatchObject({
        mimetype: "image/webp",
        bytes: Buffer.from(sampleMedium("sticker").bytes),
      });
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a voice note in Ogg/Opus goes as a PTT byte for byte; an MP3 voice note is transcoded to Ogg/Opus with ffmpeg",
    async () => {
      const w = await open();
      await w.channel.instance.send({ id: w.ann.jid }, { text: "", media: [outbound("voice")] });
      const mp3 = sampleMedium("audio");
      const ref = await w.channel.instance.send(
        { id: w.ann.jid },
        { text: "", media: [outbound("voice", { mime: mp3.mime, filename: "memo.mp3", bytes: mp3.bytes })] },
      );
      const [ogg, transcoded] = shown(w, w.ann.jid);
      expect(ogg?.medium).toMatchObject({ kind: "voice", mimetype: "audio/ogg; codecs=opus" });
      expect(ogg?.medium?.bytes).toEqual(Buffer.from(sampleMedium("voice").bytes));
      expect(transcoded?.medium).toMatchObject({ kind: "voice", mimetype: "audio/ogg; codecs=opus" });
      expect(isOggOpus(transcoded?.medium?.bytes ?? new Uint8Array())).toBe(true);
      expect(ref.data?.sentAs).toBeUndefined();
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "without ffmpeg an MP3 voice note goes as an audio file, byte for byte, and the ref says so",
    async () => {
      const w = await open({ config: { ffmpegPath: "/nonexistent/ffmpeg" } });
      const mp3 = sampleMedium("audio");
      const ref = await w.channel.instance.send(
        { id: w.ann.jid },
        { text: "", media: [outbound("voice", { mime: mp3.mime, bytes: mp3.bytes })] },
      );
      const [sent] = shown(w, w.ann.jid);
      expect(sent?.medium).toMatchObject({ kind: "audio", mimetype: "audio/mpeg", bytes: Buffer.from(mp3.bytes) });
      expect(ref.data?.sentAs).toEqual(["audio"]);
      expect(w.channel.logs.records.map((record) => record.message)).toContain(
        "whatsapp: a voice note that is no Ogg/Opus goes out as an audio file: no ffmpeg to transcode it (install ffmpeg, or set ffmpegPath)",
      );
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a location is a pin with its name and address; text, a medium and a pin go in order, the first quoting the reply",
    async () => {
      const w = await open();
      const asked = w.fake.personSends({ from: ANN.phone, chat: w.team.id, text: "where and what?" });
      const { ref: replyTo } = await messageEvent(w.channel, asked.id);
      const ref = await w.channel.instance.send(
        { id: w.team.id },
        {
          text: "here:",
          media: [outbound("image")],
          location: { latitude: 52.5163, longitude: 13.3777, name: "Brandenburger Tor", address: "Pariser Platz" },
          replyTo,
        },
      );
      const sent = w.fake.botMessages(w.team.id);
      expect(sent.map((message) => message.type)).toEqual(["extendedTextMessage", "imageMessage", "locationMessage"]);
      expect(sent[0]).toMatchObject({ id: ref.messageId, text: "here:", quoted: { stanzaId: asked.id } });
      expect(sent[2]?.message.locationMessage).toMatchObject({
        degreesLatitude: 52.5163,
        degreesLongitude: 13.3777,
        name: "Brandenburger Tor",
        address: "Pariser Platz",
      });
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a caption's @mention notifies the person; the same idempotency key gives the same message id",
    async () => {
      const w = await open();
      const media = [outbound("image", { caption: `for @${ANN.phone}` })];
      const ref = await w.channel.instance.send(
        { id: w.team.id },
        { text: "", media, mentions: [ANN.phone], idempotencyKey: "k1" },
      );
      const [sent] = w.fake.botMessages(w.team.id);
      expect(sent).toMatchObject({ id: ref.messageId, type: "imageMessage", text: `for @${ANN.phone}` });
      expect(sent?.mentions).toEqual([w.ann.jid]);
      const again = await w.channel.instance.send({ id: w.team.id }, { text: "", media, idempotencyKey: "k1" });
      expect(again.messageId).toBe(ref.messageId);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "over its kind's limit: E_TOO_LARGE before anything is read, uploaded or sent",
    async () => {
      const w = await open();
      let opened = 0;
      const huge: OutboundMedium = {
        ...outbound("image"),
        size: 16 * 1024 * 1024 + 1,
        open: () => {
          opened += 1;
          return new Blob([]).stream();
        },
      };
      await expect(w.channel.instance.send({ id: w.ann.jid }, { text: "first", media: [huge] })).rejects.toMatchObject({
        code: "E_TOO_LARGE",
        message: expect.stringContaining("16 MB"),
        hint: expect.stringContaining("send it as a file"),
      });
      expect(opened).toBe(0);
      expect(w.fake.mediaUploads()).toEqual([]);
      expect(w.fake.botMessages(w.ann.jid)).toEqual([]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a media host that stops answering fails the upload after ackTimeoutMs of silence instead of holding the send",
    async () => {
      const w = await open({ config: { ackTimeoutMs: 1000, retries: 0 } });
      // media_conn is asked (and cached) while WhatsApp still answers.
      await w.channel.instance.send({ id: w.ann.jid }, { text: "", media: [outbound("image")] });
      await w.fake.fault("hang");
      const started = Date.now();
      await expect(
        w.channel.instance.send({ id: w.ann.jid }, { text: "", media: [outbound("image")] }),
      ).rejects.toMatchObject({
        code: "E_PLATFORM",
        message: expect.stringContaining("Media upload failed"),
      });
      // ~1 s: ackTimeoutMs, not Node's default agent's 5 s socket timeout.
      expect(Date.now() - started).toBeLessThan(4_000);
      w.fake.heal();
      expect(w.fake.botMessages(w.ann.jid)).toHaveLength(1);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "an upload the media host refuses (413) is tried again, then fails E_PLATFORM with nothing sent",
    async () => {
      const w = await open({ fake: { maxUploadBytes: 64 }, config: { retries: 1 } });
      await expect(
        w.channel.instance.send({ id: w.ann.jid }, { text: "", media: [outbound("image")] }),
      ).rejects.toMatchObject({
        code: "E_PLATFORM",
        message: expect.stringContaining("Media upload failed"),
      });
      expect(w.fake.mediaRefusals()).toEqual([
        { status: 413, why: "too large" },
        { status: 413, why: "too large" },
      ]);
      expect(w.fake.botMessages(w.ann.jid)).toEqual([]);
      // Baileys logged the failed uploads; the media host's auth is in none of it.
      expect(w.channel.logs.records.some((record) => record.level === "warn")).toBe(true);
      expect(JSON.stringify(w.channel.logs.records)).not.toContain(w.fake.mediaAuth);
    },
    WIRE_TEST_TIMEOUT,
  );
});
