import { sampleMedium } from "@chorus/testkit";
import { Api, GrammyError, InputFile } from "grammy";
import type { Message } from "grammy/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFakeTelegram, type FakeTelegram } from "./index.js";

const CHAT = -1001;
const KB = 1024;

/** The refusal a call ended with, as grammY reports it. */
async function refusal(call: Promise<unknown>): Promise<{ code: number; description: string }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GrammyError)) throw new Error(`expected a Bot API refusal, got ${String(error)}`);
  return { code: error.error_code, description: error.description };
}

describe("the fake Bot API's media methods, driven by grammY's own uploads", () => {
  let fake: FakeTelegram;
  let api: Api;
  beforeEach(async () => {
    fake = createFakeTelegram({ limits: { uploadBytes: 64 * KB, downloadBytes: 32 * KB } });
    await fake.start();
    fake.addChat({ id: CHAT, type: "supergroup", title: "Team" });
    api = new Api(fake.token, { apiRoot: fake.url });
  });
  afterEach(() => fake.close());

  it("grammY's multipart (attach:// names, unquoted file names) is read; the bytes are kept and served by getFile", async () => {
    const photo = sampleMedium("image");
    const sent = await api.sendPhoto(CHAT, new InputFile(photo.bytes, "photo.png"), { caption: "hi" });
    expect(sent.caption).toBe("hi");
    const largest = sent.photo?.at(-1);
    expect(largest).toMatchObject({ width: 16, height: 16, file_size: photo.bytes.byteLength });
    expect(typeof largest?.file_id).toBe("string");
    const file = await api.getFile(largest?.file_id as string);
    expect(file).toMatchObject({ file_path: expect.stringMatching(/^photos\/file_\d+\.jpg$/) });
    const served = await fetch(`${fake.url}/file/bot${fake.token}/${file.file_path}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(photo.bytes))).toBe(true);
    expect((await fetch(`${fake.url}/file/bot123:wrong/${file.file_path}`)).status).toBe(404);
  });

  it("what each method refuses, in the Bot API's words", async () => {
    const pdf = sampleMedium("file").bytes;
    expect(await refusal(api.sendPhoto(CHAT, new InputFile(pdf, "x.png")))).toEqual({
      code: 400,
      description: "Bad Request: IMAGE_PROCESS_FAILED",
    });
    expect(await refusal(api.sendSticker(CHAT, new InputFile(sampleMedium("image").bytes, "s.png")))).toEqual({
      code: 400,
      description: "Bad Request: STICKER_DOCUMENT_INVALID",
    });
    expect(await refusal(api.sendDocument(CHAT, new InputFile(pdf, "r.pdf"), { caption: "c".repeat(1025) }))).toEqual({
      code: 400,
      description: "Bad Request: message caption is too long",
    });
    expect(await refusal(api.sendDocument(CHAT, new InputFile(new Uint8Array(65 * KB), "big.bin")))).toEqual({
      code: 413,
      description: "Request Entity Too Large",
    });
    expect(await refusal(api.raw.sendPhoto({ chat_id: CHAT } as never))).toEqual({
      code: 400,
      description: "Bad Request: there is no photo in the request",
    });
    expect(await refusal(api.getFile("AgACAgIAAxkBAAINoSuchFile"))).toEqual({
      code: 400,
      description: "Bad Request: wrong file_id or the file is temporarily unavailable",
    });
    expect(await refusal(api.raw.sendLocation({ chat_id: CHAT, longitude: 2 } as never))).toEqual({
      code: 400,
      description: "Bad Request: latitude is empty",
    });
  });

  it("a voice note must be OGG/Opus (or MP3, M4A); other bytes become a document", async () => {
    const ogg = await api.sendVoice(CHAT, new InputFile(sampleMedium("voice").bytes, "v.ogg"));
    expect(ogg.voice).toMatchObject({ mime_type: "audio/ogg", duration: 1 });
    const pdf = (await api.sendVoice(CHAT, new InputFile(sampleMedium("file").bytes, "v.pdf"))) as Message;
    expect(pdf.voice).toBeUndefined();
    expect(pdf.document).toMatchObject({ file_name: "v.pdf" });
  });

  it("albums: 2-10 items, photos and videos mixed, audio and documents only among themselves; file ids may be sent again", async () => {
    const photo = new InputFile(sampleMedium("image").bytes, "p.png");
    const mixed = await refusal(
      // Typed out of the way: grammY's types already forbid what Telegram refuses here.
      api.sendMediaGroup(CHAT, [
        { type: "photo", media: photo },
        { type: "audio", media: new InputFile(sampleMedium("audio").bytes, "a.mp3") },
      ] as never),
    );
    expect(mixed).toEqual({ code: 400, description: "Bad Request: audio can't be mixed with other media types" });
    const sent: Message[] = await api.sendMediaGroup(CHAT, [
      { type: "photo", media: new InputFile(sampleMedium("image").bytes, "p.png"), caption: "first" },
      { type: "video", media: new InputFile(sampleMedium("video").bytes, "v.mp4") },
    ]);
    expect(sent).toHaveLength(2);
    expect(sent[0]?.media_group_id).toBe(sent[1]?.media_group_id);
    expect(typeof sent[0]?.media_group_id).toBe("string");
    const fileId = sent[0]?.photo?.at(-1)?.file_id as string;
    const eleven = Array.from({ length: 11 }, () => ({ type: "photo" as const, media: fileId }));
    expect(await refusal(api.sendMediaGroup(CHAT, eleven))).toEqual({
      code: 400,
      description: "Bad Request: too many messages to send as an album",
    });
    const again = await api.sendPhoto(CHAT, fileId);
    expect(again.photo?.at(-1)?.file_id).toBe(fileId);
  });

  it("getFile refuses a file over the bot download limit as Telegram does (20 MB; here 32 KB)", async () => {
    const sent = await api.sendDocument(CHAT, new InputFile(new Uint8Array(40 * KB), "big.bin"));
    expect(await refusal(api.getFile(sent.document?.file_id as string))).toEqual({
      code: 400,
      description: "Bad Request: file is too big",
    });
  });
});
