import { collectBytes } from "@chorus/channel-kit";
import { type Attachment, type ChorusError, isChorusError } from "@chorus/core";
import { sampleMedium } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as fx from "../fixtures/media-payloads.js";
import { ANN, BOB, BOT } from "../fixtures/wire-messages.js";
import { messageEvent, openWireSession, WIRE_TEST_TIMEOUT, type WireSession } from "../fixtures/wire-session.js";
import { encryptMedium } from "../testing/media-crypto.js";

// People's media reach the plugin as WhatsApp delivers them: a message naming the medium's direct
// path and key, its bytes encrypted on the fake's media host (HTTPS), downloaded and decrypted.
let s: WireSession;
beforeEach(async () => {
  s = await openWireSession();
}, WIRE_TEST_TIMEOUT);
afterEach(async () => {
  const { problems } = s.fake;
  await s.close();
  expect(problems).toEqual([]);
});

/** Downloads an attachment whole (or the error it failed with). */
async function download(attachment: Attachment | undefined, maxBytes = 1024 * 1024): Promise<Buffer | ChorusError> {
  try {
    const medium = await (s.channel.instance.download as NonNullable<typeof s.channel.instance.download>)(
      attachment as Attachment,
      { maxBytes },
    );
    return Buffer.from(await collectBytes(medium.stream, maxBytes * 2, "test"));
  } catch (error) {
    if (isChorusError(error)) return error;
    throw error;
  }
}

describe("media people send, over the wire", () => {
  it(
    "a recorded photo payload: an image attachment, its caption the text (mention resolved), and download gives the bytes it was encrypted from",
    async () => {
      const mediaKey = Buffer.from(fx.photo.imageMessage?.mediaKey as Uint8Array);
      const hosted = encryptMedium(fx.PHOTO_BYTES, "Image", mediaKey);
      expect(hosted.fileEncSha256).toEqual(Buffer.from(fx.photo.imageMessage?.fileEncSha256 as Uint8Array));
      s.fake.hostMedium(fx.photo.imageMessage?.directPath as string, hosted.enc);
      const key = s.fake.personSends({ from: ANN.phone, chat: s.team.id, message: fx.photo });
      const event = await messageEvent(s.channel, key.id);
      expect(event).toMatchObject({
        text: `what is this @${BOT.name}?`,
        mentions: { bot: true },
        attachments: [{ kind: "image", mime: "image/png", size: 100, width: 16, height: 16 }],
      });
      // The payload's url names mmg.whatsapp.net; the download goes to the host media_conn named.
      expect(await download(event.attachments?.[0])).toEqual(fx.PHOTO_BYTES);
      expect(s.fake.mediaBytesServed).toBe(hosted.enc.byteLength);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a voice note, a document with its name and caption, a view-once voice note: each downloads byte for byte",
    async () => {
      const voice = sampleMedium("voice");
      const pdf = sampleMedium("file");
      const note = s.fake.personSendsMedium({ from: ANN.phone, kind: "voice", bytes: voice.bytes, seconds: 1 });
      const doc = s.fake.personSendsMedium({
        from: BOB.phone,
        chat: s.club.id,
        kind: "file",
        bytes: pdf.bytes,
        mime: "application/pdf",
        filename: "minutes.pdf",
        caption: "from Tuesday",
      });
      const once = s.fake.personSendsMedium({ from: ANN.phone, kind: "voice", bytes: voice.bytes, viewOnce: true });
      const [noteEvent, docEvent, onceEvent] = await Promise.all(
        [note, doc, once].map((key) => messageEvent(s.channel, key.id)),
      );
      expect(noteEvent).toMatchObject({
        text: "",
        attachments: [
          { kind: "voice", mime: "audio/ogg; codecs=opus", durationMs: 1000, size: voice.bytes.byteLength },
        ],
      });
      expect(docEvent).toMatchObject({
        text: "from Tuesday",
        attachments: [{ kind: "file", mime: "application/pdf", filename: "minutes.pdf" }],
      });
      expect(onceEvent?.attachments).toMatchObject([{ kind: "voice" }]);
      expect(await download(noteEvent?.attachments?.[0])).toEqual(Buffer.from(voice.bytes));
      expect(await download(docEvent?.attachments?.[0])).toEqual(Buffer.from(pdf.bytes));
      expect(await download(onceEvent?.attachments?.[0])).toEqual(Buffer.from(voice.bytes));
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a live location is where it was, its comment the text; a contact card carries name and number",
    async () => {
      const live = s.fake.personSendsMedium({
        from: ANN.phone,
        kind: "live-location",
        location: { latitude: 48.8584, longitude: 2.2945 },
        caption: "on my way",
      });
      const card = s.fake.personSendsMedium({
        from: ANN.phone,
        kind: "contact",
        contact: { name: "Ada Lovelace", phones: ["+44 20 7946 0958"] },
      });
      expect(await messageEvent(s.channel, live.id)).toMatchObject({
        text: "on my way",
        attachments: [{ kind: "location", location: { latitude: 48.8584, longitude: 2.2945 } }],
      });
      expect(await messageEvent(s.channel, card.id)).toMatchObject({
        text: "",
        attachments: [{ kind: "contact", contact: { name: "Ada Lovelace", phones: ["+44 20 7946 0958"] } }],
      });
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a medium the host no longer has is E_MESSAGE_NOT_FOUND; damaged bytes fail the integrity check",
    async () => {
      const image = sampleMedium("image");
      const gone = s.fake.personSendsMedium({ from: ANN.phone, kind: "image", bytes: image.bytes });
      const damaged = s.fake.personSendsMedium({ from: ANN.phone, kind: "image", bytes: image.bytes });
      const [goneEvent, damagedEvent] = await Promise.all(
        [gone, damaged].map((key) => messageEvent(s.channel, key.id)),
      );
      const path = (attachment: Attachment | undefined) =>
        (attachment?.source as { directPath: string } | undefined)?.directPath ?? "";
      s.fake.dropMedium(path(goneEvent?.attachments?.[0]));
      expect(await download(goneEvent?.attachments?.[0])).toMatchObject({
        code: "E_MESSAGE_NOT_FOUND",
        message: expect.stringContaining("HTTP 404"),
      });
      const flipped = encryptMedium(image.bytes, "Image").enc;
      s.fake.hostMedium(path(damagedEvent?.attachments?.[0]), flipped);
      expect(await download(damagedEvent?.attachments?.[0])).toMatchObject({
        code: "E_PLATFORM",
        message: expect.stringContaining("failed its integrity check: its MAC does not match its media key"),
      });
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "over maxBytes: E_TOO_LARGE before a byte is fetched; a message that hides its size is stopped by the host's length",
    async () => {
      const big = new Uint8Array(3 * 1024 * 1024).fill(7);
      const stated = s.fake.personSendsMedium({ from: ANN.phone, kind: "file", bytes: big, filename: "big.bin" });
      const event = await messageEvent(s.channel, stated.id);
      expect(await download(event.attachments?.[0], 64 * 1024)).toMatchObject({
        code: "E_TOO_LARGE",
        message: expect.stringContaining("64 KB"),
      });
      expect(s.fake.mediaBytesServed).toBe(0);
      const { size: _size, ...hidden } = (event.attachments ?? [])[0] as Attachment;
      const { fileLength: _length, ...source } = hidden.source as Record<string, string>;
      const error = await download({ ...hidden, source }, 64 * 1024);
      expect(error).toMatchObject({ code: "E_TOO_LARGE" });
      expect(s.fake.mediaBytesServed).toBeLessThan(big.byteLength / 2);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "an attachment whose source is not a WhatsApp medium (or names another host) is refused before any request",
    async () => {
      const refused = [
        { kind: "image" as const },
        { kind: "image" as const, source: { type: "image", directPath: "@evil.example/x", mediaKey: "AAAA" } },
        { kind: "image" as const, source: { type: "ppic", directPath: "/v/x", mediaKey: "AAAA" } },
      ];
      for (const attachment of refused) {
        expect(await download(attachment)).toMatchObject({ code: "E_INVALID_INPUT" });
      }
      expect(s.fake.mediaBytesServed).toBe(0);
    },
    WIRE_TEST_TIMEOUT,
  );
});
