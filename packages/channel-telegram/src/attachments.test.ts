import type { InboundMessageEvent } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { mergeAlbum } from "./album.js";
import * as media from "./fixtures/media-updates.js";
import { type InboundContext, normalizeUpdate } from "./inbound.js";
import { readUpdate } from "./wire.js";

const ctx: InboundContext = {
  scope: { channel: "telegram", accountId: "default", botId: "123456789" },
  bot: { id: 123456789, username: "chorus_test_bot", first_name: "Chorus" },
  conversationId: (id) => id,
};

/** Reads a fixture like the receiver does, then normalizes it into its one message event. */
function message(payload: unknown): InboundMessageEvent {
  const read = readUpdate(payload);
  if (!("update" in read)) throw new Error(`fixture does not read: ${read.problem}`);
  const [event] = normalizeUpdate(read.update, ctx).events;
  if (event?.type !== "message") throw new Error("no message event");
  return event;
}

describe("inbound media: Telegram's shapes become attachments (DESIGN §2.6)", () => {
  it("a photo: its largest size (not its last), without a mime Telegram does not state; the caption is the text, its entities the mentions", () => {
    const event = message(media.photoWithCaption);
    expect(event.text).toBe("@chorus_test_bot what is this?");
    expect(event.mentions).toEqual({ bot: true, others: [] });
    expect(event.attachments).toEqual([
      {
        kind: "image",
        width: 1280,
        height: 960,
        size: 141227,
        source: { fileId: "AgACAgIAAxkBAAIBLWdPhotoBig1280", fileUniqueId: "AQADy1280" },
      },
    ]);
  });

  it("a video: name, type, size, duration in milliseconds, dimensions; a medium alone is text ''", () => {
    const event = message(media.video);
    expect(event.text).toBe("");
    expect(event.attachments).toEqual([
      {
        kind: "video",
        mime: "video/mp4",
        filename: "beach.mp4",
        size: 18081996,
        durationMs: 29_000,
        width: 720,
        height: 1280,
        source: { fileId: "BAACAgIAAxkBAAIBMWdVideoBeach", fileUniqueId: "AgADVideoBeach" },
      },
    ]);
  });

  it("an animation is one video (its `document` twin is no second attachment)", () => {
    expect(message(media.animation).attachments).toEqual([
      expect.objectContaining({ kind: "video", mime: "video/mp4", filename: "dance.gif.mp4", durationMs: 3000 }),
    ]);
  });

  it("a video note is a video, square (its `length`), typed by nothing Telegram says", () => {
    const [note] = message(media.videoNote).attachments ?? [];
    expect(note).toEqual({
      kind: "video",
      width: 384,
      height: 384,
      durationMs: 7000,
      size: 402112,
      source: { fileId: "DQACAgIAAxkBAAIBQWdVideoNote", fileUniqueId: "AgADVideoNote" },
    });
  });

  it("audio, a voice note and a document keep their type, name, size and duration", () => {
    expect(message(media.audio).attachments).toEqual([
      expect.objectContaining({ kind: "audio", mime: "audio/mpeg", filename: "song.mp3", durationMs: 243_000 }),
    ]);
    expect(message(media.voice).attachments).toEqual([
      {
        kind: "voice",
        mime: "audio/ogg",
        durationMs: 4000,
        size: 15232,
        source: { fileId: "AwACAgIAAxkBAAIBPWdVoiceNote", fileUniqueId: "AgADVoiceNote" },
      },
    ]);
    const document = message(media.documentWithCaption);
    expect(document.text).toBe("The Q3 report");
    expect(document.attachments).toEqual([
      expect.objectContaining({ kind: "file", mime: "application/pdf", filename: "report Q3.pdf", size: 536392 }),
    ]);
  });

  it("stickers: static WebP, animated TGS and video WEBM are all stickers, typed by their flags", () => {
    const kinds = [media.stickerStatic, media.stickerAnimated, media.stickerVideo].map((u) => message(u).attachments);
    expect(kinds).toEqual([
      [expect.objectContaining({ kind: "sticker", mime: "image/webp", width: 512, height: 512 })],
      [expect.objectContaining({ kind: "sticker", mime: "application/x-tgsticker" })],
      [expect.objectContaining({ kind: "sticker", mime: "video/webm" })],
    ]);
  });

  it("a location, a venue (one location with its name and address, not two) and a contact card with its vCard", () => {
    expect(message(media.location).attachments).toEqual([
      { kind: "location", location: { latitude: 52.520008, longitude: 13.404954 } },
    ]);
    expect(message(media.venue).attachments).toEqual([
      {
        kind: "location",
        location: {
          latitude: 48.85837,
          longitude: 2.294481,
          name: "Eiffel Tower",
          address: "Champ de Mars, 5 Av. Anatole France, Paris",
        },
      },
    ]);
    expect(message(media.contact)).toMatchObject({
      text: "",
      attachments: [
        {
          kind: "contact",
          contact: {
            name: "Ada Lovelace",
            phones: ["+442079460958"],
            vcard: expect.stringContaining("FN:Ada Lovelace"),
          },
        },
      ],
    });
  });

  it("a reply to a photo without a caption names it as the reply's text", () => {
    expect(message(media.replyToPhoto).replyTo).toEqual({
      messageId: "314",
      fromBot: true,
      senderId: "123456789",
      text: "[photo]",
    });
  });

  it("an album's items merge into one message: the first item's ids, every attachment in order, the caption wherever it was", () => {
    const merged = mergeAlbum(media.album.map((u) => message(u)));
    expect(merged).toMatchObject({
      eventId: "910020",
      text: "Holiday, day 1",
      ref: { messageId: "320" },
      attachments: [
        { kind: "image", source: { fileId: "AgACAgIAAxkBAAIBAlbumOneY" } },
        { kind: "image", source: { fileId: "AgACAgIAAxkBAAIBAlbumTwoY" } },
        { kind: "image", source: { fileId: "AgACAgIAAxkBAAIBAlbumThreeY" } },
      ],
    });
  });

  it("a file object without its file_id is named, not half-read", () => {
    const broken = structuredClone(media.voice) as unknown as { message: { voice: Record<string, unknown> } };
    delete broken.message.voice.file_id;
    expect(readUpdate(broken)).toEqual({
      updateId: 910005,
      problem: expect.stringMatching(/^message\.voice\.file_id: /),
    });
  });
});
