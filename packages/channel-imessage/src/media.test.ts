import { accountCapabilities, type MediaCapabilities, mediaCapabilityProblems, mediaOf, planMedia } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { imessageConfigSchema } from "./config.js";
import { imessageChannel } from "./index.js";

const account = (sendMethod?: string): MediaCapabilities =>
  mediaOf(
    accountCapabilities(
      imessageChannel,
      imessageConfigSchema.parse({ serverUrl: "http://mac.local:1234", password: "pw", sendMethod }),
    ),
  );

describe("iMessage media capabilities per account (mediaFor)", () => {
  it("auto (the default) and private-api: every kind but stickers and pins, captions, ten to a message", () => {
    for (const method of [undefined, "auto", "private-api"]) {
      expect(account(method)).toEqual(imessageChannel.capabilities.media);
    }
    expect(account()).toMatchObject({
      send: ["image", "video", "audio", "voice", "file"],
      receive: ["image", "video", "audio", "voice", "file", "sticker"],
      caption: true,
      perMessage: 10,
      maxSendBytes: 1024 ** 3,
    });
    expect(mediaCapabilityProblems(account())).toEqual([]);
  });

  it("apple-script: no captions, one file a message, and a voice note planned as audio", () => {
    const media = account("apple-script");
    expect(media).toMatchObject({ send: ["image", "video", "audio", "file"], caption: false, perMessage: 1 });
    const voice = { kind: "voice" as const, size: 10, mime: "audio/mpeg", filename: "note.mp3" };
    const plan = planMedia({ text: "listen", media: [voice, { ...voice, kind: "image" }] }, media, {
      maxBytes: 1e9,
    });
    expect(plan.sentAs).toEqual(["audio", "image"]);
    expect(plan.messages.map((m) => [m.text, m.media.length])).toEqual([
      ["listen", 0],
      [undefined, 1],
      [undefined, 1],
    ]);
  });
});
