import { describe, expect, it } from "vitest";
import * as fx from "../fixtures/media-payloads.js";
import { unwrapContent } from "../inbound/index.js";
import { attachmentsOf, captionOf } from "./attachments.js";

const of = (message: Parameters<typeof unwrapContent>[0]) => attachmentsOf(unwrapContent(message));

describe("attachmentsOf: WhatsApp media messages as attachments", () => {
  it("a photo: its type, size, dimensions, and in source what downloading it needs", () => {
    expect(of(fx.photo)).toEqual([
      {
        kind: "image",
        mime: "image/png",
        width: 16,
        height: 16,
        size: 100,
        source: {
          type: "image",
          directPath: fx.photo.imageMessage?.directPath,
          mediaKey: "R3kq0ZJ2m1wH7d7eTqUu0cS6l1pXv4yB8nA5fK2gC9s=",
          fileEncSha256: "BIQqUYK/EX/6JGSO2IP4JZ/K3BzV5tTCtsz5ANriZHc=",
          fileSha256: "w6wdH3tLm3EqHc96Ms1bwR5gjUGdaN9S7rO9cMQyFaQ=",
          fileLength: 100,
        },
      },
    ]);
    expect(captionOf(unwrapContent(fx.photo))).toBe("what is this @200000000000001?");
  });

  it("a voice note (ptt) is voice, audio keys; a view-once one is unwrapped the same", () => {
    const [voice] = of(fx.voiceNote);
    expect(voice).toMatchObject({ kind: "voice", mime: "audio/ogg; codecs=opus", durationMs: 3000, size: 9876 });
    expect(voice?.source).toMatchObject({ type: "audio" });
    expect(of(fx.viewOnceVoice)).toEqual(of(fx.voiceNote));
  });

  it("audio without ptt is audio", () => {
    const music = { audioMessage: { ...fx.voiceNote.audioMessage, ptt: false, mimetype: "audio/mpeg" } };
    expect(of(music)).toMatchObject([{ kind: "audio", mime: "audio/mpeg" }]);
  });

  it("a GIF and a round video note are videos (video keys)", () => {
    expect(of(fx.gif)).toMatchObject([{ kind: "video", mime: "video/mp4", width: 480, height: 270, durationMs: 2000 }]);
    expect(of(fx.gif)[0]?.source).toMatchObject({ type: "video" });
    expect(of(fx.videoNote)).toMatchObject([{ kind: "video", width: 384, height: 384, durationMs: 6000 }]);
    expect(of(fx.videoNote)[0]?.source).toMatchObject({ type: "ptv" });
  });

  it("a document with a caption: unwrapped, a file with its name; the caption is the text", () => {
    expect(of(fx.document)).toMatchObject([
      { kind: "file", mime: "application/pdf", filename: "Q3 report.pdf", size: 183_442, source: { type: "document" } },
    ]);
    expect(captionOf(unwrapContent(fx.document))).toBe("numbers for Monday");
  });

  it("a sticker: WebP with its dimensions, image keys", () => {
    expect(of(fx.sticker)).toMatchObject([
      { kind: "sticker", mime: "image/webp", width: 512, height: 512, size: 14_580, source: { type: "sticker" } },
    ]);
  });

  it("a place is a location with name and address; a live location where it was, its comment the text", () => {
    expect(of(fx.place)).toEqual([
      {
        kind: "location",
        location: {
          latitude: 52.5163,
          longitude: 13.3777,
          name: "Brandenburger Tor",
          address: "Pariser Platz, 10117 Berlin",
        },
      },
    ]);
    expect(of(fx.liveLocation)).toEqual([{ kind: "location", location: { latitude: 48.8584, longitude: 2.2945 } }]);
    expect(captionOf(unwrapContent(fx.liveLocation))).toBe("on my way");
  });

  it("contact cards: name and numbers from the vCard, one attachment per card", () => {
    expect(of(fx.contact)).toEqual([
      {
        kind: "contact",
        contact: { name: "Ada Lovelace", phones: ["+44 20 7946 0958"], vcard: fx.contact.contactMessage?.vcard },
      },
    ]);
    expect(of(fx.contacts).map((a) => [a.contact?.name, a.contact?.phones])).toEqual([
      ["Ada Lovelace", ["+44 20 7946 0958"]],
      ["Charles Babbage", ["+44 7700 900123"]],
    ]);
  });

  it("a medium without a direct path or key has no source (nothing to download); text is no attachment", () => {
    expect(of({ imageMessage: { mimetype: "image/jpeg" } })).toEqual([{ kind: "image", mime: "image/jpeg" }]);
    expect(of({ conversation: "hi" })).toEqual([]);
    expect(of({ extendedTextMessage: { text: "hi" } })).toEqual([]);
    expect(of(undefined)).toEqual([]);
  });
});
