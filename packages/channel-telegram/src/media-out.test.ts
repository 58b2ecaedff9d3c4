import { streamOf } from "@chorus/channel-kit";
import type { OutboundMedium, UploadKind } from "@chorus/core";
import { faults, type RecordedRequest, sampleMedium } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { ANN, GROUP, telegramSession } from "./fake-group.test-util.js";
import { platformMedium } from "./testing/index.js";

const KB = 1024;
const SENDS = /\/(send[A-Za-z]+)$/;

/** A sample medium to send, counting how often its bytes were opened. */
function medium(kind: UploadKind, extra: Partial<OutboundMedium> & { bytes?: Uint8Array } = {}) {
  const sample = sampleMedium(kind);
  const bytes = extra.bytes ?? sample.bytes;
  const opened = { count: 0 };
  const out: OutboundMedium = {
    kind,
    mime: sample.mime,
    filename: sample.filename,
    size: bytes.byteLength,
    open: () => {
      opened.count++;
      return streamOf(bytes);
    },
    ...extra,
  };
  return Object.assign(out, { bytes, opened });
}

/** `size` bytes starting with the sample of `kind`. */
function sized(kind: UploadKind, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(sampleMedium(kind).bytes.subarray(0, size));
  return bytes;
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe("media out: every kind with Telegram's own method, byte for byte", () => {
  const t = telegramSession();
  const sends = () => t.fake.server.requests.filter((r) => SENDS.test(r.path)).map((r) => SENDS.exec(r.path)?.[1]);

  it.each([
    ["image", "sendPhoto", "image", true],
    ["video", "sendVideo", "video", true],
    ["audio", "sendAudio", "audio", true],
    ["voice", "sendVoice", "voice", false],
    ["file", "sendDocument", "file", true],
    ["sticker", "sendSticker", "sticker", false],
  ] as const)("%s goes out with %s and arrives as %s", async (kind, method, shownAs, captioned) => {
    const { instance } = await t.start();
    const item = medium(kind, captioned ? { caption: `a ${kind}` } : {});
    const ref = await instance.send({ id: String(GROUP) }, { text: "", media: [item] });
    expect(sends()).toEqual([method]);
    const shown = t.fake.messageMedia(GROUP, Number(ref.messageId));
    expect(shown.media).toHaveLength(1);
    expect(shown.media[0]).toMatchObject({ kind: shownAs, filename: item.filename });
    expect(same(shown.media[0]?.bytes as Uint8Array, item.bytes)).toBe(true);
    expect(shown.media[0]?.caption).toBe(captioned ? `a ${kind}` : undefined);
    expect(ref).toMatchObject({ channel: "telegram", conversationId: String(GROUP), fromBot: true });
  });

  it("a voice note (OGG/Opus) is a voice message on Telegram, not a file", async () => {
    const { instance } = await t.start();
    const ref = await instance.send({ id: String(GROUP) }, { text: "", media: [medium("voice")] });
    const [message] = t.fake.botMessages(GROUP).filter((m) => m.message_id === Number(ref.messageId));
    expect(message?.voice).toMatchObject({ mime_type: "audio/ogg", file_id: expect.any(String) });
    expect(message?.document).toBeUndefined();
  });

  it("uploads are streamed multipart bodies with an exact length, the file's name quoted and its type", async () => {
    const { instance } = await t.start();
    await instance.send({ id: String(GROUP) }, { text: "", media: [medium("file", { filename: 'Q3 "final".pdf' })] });
    const [request] = t.fake.server.requestsTo("POST", /\/sendDocument$/) as RecordedRequest[];
    expect(request?.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(request?.headers["content-length"])).toBe(Buffer.byteLength(request?.rawBody ?? "", "latin1"));
    expect(request?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.rawBody).toContain(
      'name="document"; filename="Q3 %22final%22.pdf"\r\nContent-Type: application/pdf',
    );
    expect(t.fake.botMessages(GROUP)[0]?.document?.file_name).toBe('Q3 "final".pdf');
  });

  it("into a forum topic, answering a message: every send in the topic, only the first one a reply", async () => {
    const FORUM = -1009;
    t.fake.addChat({ id: FORUM, type: "supergroup", title: "Dev", is_forum: true });
    const topic = t.fake.createTopic(FORUM, "Ideas", ANN);
    const asked = t.fake.userSends({ chatId: FORUM, from: ANN, text: "pictures?", threadId: topic });
    const { instance } = await t.start();
    const replyTo = await instance.resolveMessageRef(
      { id: String(FORUM), threadId: String(topic) },
      String(asked.message_id),
    );
    await instance.send(
      { id: String(FORUM), threadId: String(topic) },
      { text: "Here:", media: [medium("image"), medium("file")], replyTo },
    );
    const calls = t.fake.server.requests.filter((r) => SENDS.test(r.path));
    expect(calls.map((r) => SENDS.exec(r.path)?.[1])).toEqual(["sendMessage", "sendPhoto", "sendDocument"]);
    const fields = calls.map((r) => r.body as Record<string, unknown>);
    expect(fields.map((f) => Number(f.message_thread_id))).toEqual([topic, topic, topic]);
    expect(fields.map((f) => f.reply_parameters !== undefined)).toEqual([true, false, false]);
  });

  it("a caption over Telegram's 1024 characters goes first as its own message; the medium then has none", async () => {
    const { instance } = await t.start();
    const long = `${"A long story. ".repeat(100)}The end.`;
    expect(long.length).toBeGreaterThan(1024);
    const ref = await instance.send({ id: String(GROUP) }, { text: "", media: [medium("image", { caption: long })] });
    expect(sends()).toEqual(["sendMessage", "sendPhoto"]);
    const [text, photo] = t.fake.botMessages(GROUP);
    expect(text?.text).toBe(long);
    expect(photo?.caption).toBeUndefined();
    // The ref is the first message sent: the text that carries the caption.
    expect(ref.messageId).toBe(String(text?.message_id));
    // A caption that fits stays on the medium.
    await instance.send({ id: String(GROUP) }, { text: "", media: [medium("image", { caption: "x".repeat(1024) })] });
    expect(t.fake.botMessages(GROUP)[2]?.caption).toHaveLength(1024);
  });

  it("a location is a pin (sendLocation); with a name and an address, a venue", async () => {
    const { instance } = await t.start();
    const pin = await instance.send(
      { id: String(GROUP) },
      { text: "", location: { latitude: 52.520008, longitude: 13.404954 } },
    );
    expect(t.fake.messageMedia(GROUP, Number(pin.messageId))).toEqual({
      media: [],
      location: { latitude: 52.520008, longitude: 13.404954 },
    });
    const place = { latitude: 48.85837, longitude: 2.294481, name: "Eiffel Tower", address: "Champ de Mars, Paris" };
    const venue = await instance.send({ id: String(GROUP) }, { text: "", location: place });
    expect(t.fake.messageMedia(GROUP, Number(venue.messageId)).location).toEqual(place);
    expect(sends()).toEqual(["sendLocation", "sendVenue"]);
  });
});

describe("media out: albums (sendMediaGroup)", () => {
  const t = telegramSession();
  const sends = () =>
    t.fake.server.requests
      .filter((r) => SENDS.test(r.path))
      .map((r) => {
        const method = SENDS.exec(r.path)?.[1];
        const media = (r.body as { media?: string }).media;
        return method === "sendMediaGroup"
          ? `${method}(${(JSON.parse(media ?? "[]") as { type: string }[]).map((m) => m.type).join(",")})`
          : method;
      });

  it("photos together: one sendMediaGroup naming its files with attach://, the caption on its item; the first message's ref", async () => {
    const { instance } = await t.start();
    const items = [
      medium("image", { caption: "Holiday" }),
      medium("image", { bytes: sized("image", 300) }),
      medium("image"),
    ];
    const ref = await instance.send({ id: String(GROUP) }, { text: "", media: items });
    expect(sends()).toEqual(["sendMediaGroup(photo,photo,photo)"]);
    const [request] = t.fake.server.requestsTo("POST", /\/sendMediaGroup$/);
    expect(JSON.parse((request?.body as { media: string } | undefined)?.media ?? "null")).toEqual([
      { type: "photo", media: "attach://file0", caption: "Holiday" },
      { type: "photo", media: "attach://file1" },
      { type: "photo", media: "attach://file2" },
    ]);
    const shown = t.fake.messageMedia(GROUP, Number(ref.messageId));
    expect(shown.media.map((m) => m.caption)).toEqual(["Holiday", undefined, undefined]);
    expect(shown.media.map((m, i) => same(m.bytes, items[i]?.bytes as Uint8Array))).toEqual([true, true, true]);
    const album = t.fake.botMessages(GROUP);
    expect(ref.messageId).toBe(String(album[0]?.message_id));
    expect(new Set(album.map((m) => m.media_group_id)).size).toBe(1);
  });

  it("kinds that cannot share an album go as separate messages, in order: photos+videos, audio with audio, documents apart", async () => {
    const { instance } = await t.start();
    const items = [
      medium("image"),
      medium("video"),
      medium("audio"),
      medium("audio"),
      medium("file"),
      medium("image"),
      medium("voice"),
      medium("file"),
      medium("file"),
    ];
    await instance.send({ id: String(GROUP) }, { text: "", media: items });
    expect(sends()).toEqual([
      "sendMediaGroup(photo,video)",
      "sendMediaGroup(audio,audio)",
      "sendDocument",
      "sendPhoto",
      "sendVoice",
      "sendMediaGroup(document,document)",
    ]);
    const shown = t.fake.botMessages(GROUP).map((m) => platformMedium(t.fake.files, m)?.kind);
    expect(shown).toEqual(["image", "video", "audio", "audio", "file", "image", "voice", "file", "file"]);
  });
});

describe("media out: Telegram's limits", () => {
  const t = telegramSession({}, { limits: { uploadBytes: 64 * KB, photoBytes: 32 * KB } });

  it("an upload over 50 MB (here 64 KB): Telegram's 413 Request Entity Too Large is E_TOO_LARGE, nothing is posted", async () => {
    const { instance } = await t.start();
    const error = await instance
      .send({ id: String(GROUP) }, { text: "", media: [medium("file", { bytes: sized("file", 100 * KB) })] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "E_TOO_LARGE",
      message: "Telegram refused sendDocument: 413 Request Entity Too Large",
      hint: expect.stringContaining("up to 50 MB"),
    });
    expect(t.fake.server.requestsTo("POST", /\/sendDocument$/).map((r) => r.status)).toEqual([413]);
    expect(t.fake.botMessages(GROUP)).toEqual([]);
  });

  it("a photo over 10 MB (here 32 KB): Telegram's PHOTO_SAVE_FILE_INVALID is E_TOO_LARGE", async () => {
    const { instance } = await t.start();
    const error = await instance
      .send({ id: String(GROUP) }, { text: "", media: [medium("image", { bytes: sized("image", 40 * KB) })] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "E_TOO_LARGE",
      message: "Telegram refused sendPhoto: 400 Bad Request: PHOTO_SAVE_FILE_INVALID",
    });
    expect(t.fake.botMessages(GROUP)).toEqual([]);
  });

  it("a medium over the limit handed to send directly is refused before anything is sent or read", async () => {
    const { instance } = await t.start();
    const huge = medium("image", { size: 10 * 1024 * KB + 1 });
    const error = await instance
      .send({ id: String(GROUP) }, { text: "first the text", media: [medium("file"), huge] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "E_TOO_LARGE",
      message: expect.stringMatching(/^"image\.png" is (.*, )?over 10 MB\.$/),
      hint: expect.stringContaining("send it as a file"),
    });
    expect(huge.opened.count).toBe(0);
    expect(t.fake.server.requests.filter((r) => SENDS.test(r.path))).toEqual([]);
  });

  it("a send Telegram refused with a 5xx is sent again, its file opened again; a lost connection is not (it may have arrived)", async () => {
    const { instance } = await t.start();
    t.fake.server.inject(faults.serverError({ path: /\/sendDocument$/ }, { status: 502, times: 1 }));
    const retried = medium("file");
    await instance.send({ id: String(GROUP) }, { text: "", media: [retried] });
    expect(retried.opened.count).toBe(2);
    expect(t.fake.botMessages(GROUP)).toHaveLength(1);
    t.fake.server.inject(faults.reset({ path: /\/sendDocument$/ }, { times: 1 }));
    const lost = medium("file");
    const error = await instance.send({ id: String(GROUP) }, { text: "", media: [lost] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_PLATFORM" });
    expect(lost.opened.count).toBe(1);
    expect(t.fake.botMessages(GROUP)).toHaveLength(1);
  });
});
