import { isChorusError, type OutboundMedium } from "@chorus/core";
import { sampleMedium } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { checkMediaLimits } from "../media/outbound.js";
import { silentBaileysLogger } from "../testing/silent-logger.js";
import { stepsOf } from "./steps.js";

const options = { logger: silentBaileysLogger as never };

function medium(kind: OutboundMedium["kind"], extra: Partial<OutboundMedium> = {}): OutboundMedium {
  const sample = sampleMedium(kind);
  return {
    kind,
    mime: sample.mime,
    filename: sample.filename,
    size: sample.bytes.byteLength,
    open: () => new Blob([sample.bytes]).stream(),
    ...extra,
  };
}

/** What each step sends, without its streams. */
async function contents(message: Parameters<typeof stepsOf>[0]) {
  const steps = await stepsOf(message, options);
  return steps.map((step) => {
    const content = step.content([]) as unknown as Record<string, unknown>;
    const [type] = Object.keys(content).filter((key) =>
      ["text", "image", "video", "audio", "document", "sticker", "location"].includes(key),
    );
    const { [type as string]: _bytes, ...rest } = content;
    return {
      type,
      ...(type === "text" || type === "location" ? { [type as string]: content[type as string] } : {}),
      ...rest,
    };
  });
}

describe("stepsOf: the WhatsApp messages of one outbound message", () => {
  it("text first, each medium its own message with its caption, a caption audio cannot carry as text right before it, then the pin", async () => {
    expect(
      await contents({
        text: "hello",
        media: [medium("image", { caption: "look" }), medium("audio", { caption: "listen" }), medium("file")],
        location: { latitude: 1, longitude: 2 },
      }),
    ).toEqual([
      { type: "text", text: "hello", linkPreview: null },
      { type: "image", mimetype: "image/png", caption: "look" },
      { type: "text", text: "listen", linkPreview: null },
      { type: "audio", mimetype: "audio/mpeg", ptt: false },
      { type: "document", mimetype: "application/pdf", fileName: "file.pdf" },
      { type: "location", location: { degreesLatitude: 1, degreesLongitude: 2 } },
    ]);
  });

  it("a voice note in Ogg/Opus is a PTT; a sticker that is no WebP goes as a photo", async () => {
    const png = sampleMedium("image");
    expect(
      await contents({
        text: "",
        media: [medium("voice"), medium("sticker", { mime: png.mime, open: () => new Blob([png.bytes]).stream() })],
      }),
    ).toEqual([
      { type: "audio", mimetype: "audio/ogg; codecs=opus", ptt: true },
      { type: "image", mimetype: "image/png" },
    ]);
  });

  it("a message of text alone is its text as it is, even empty", async () => {
    expect(await contents({ text: "" })).toEqual([{ type: "text", text: "", linkPreview: null }]);
  });
});

describe("checkMediaLimits", () => {
  const refusal = (media: OutboundMedium[]) => {
    try {
      checkMediaLimits(media);
    } catch (error) {
      if (isChorusError(error)) return { code: error.code, message: error.message, hint: error.hint };
    }
    return undefined;
  };

  it("refuses a medium over its kind's limit, saying what to send it as instead", () => {
    expect(refusal([medium("sticker", { size: 500 * 1024 + 1 })])).toEqual({
      code: "E_TOO_LARGE",
      message: expect.stringContaining("500 KB"),
      hint: "WhatsApp takes stickers up to 500 KB; send it as an image.",
    });
    expect(refusal([medium("voice", { size: 16 * 1024 * 1024 + 1 })])?.hint).toBe(
      "WhatsApp takes this kind up to 16 MB; send it as a file (a document, up to 2 GB).",
    );
    expect(refusal([medium("file", { size: 2048 * 1024 * 1024 + 1 })])?.hint).toBe(
      "WhatsApp takes documents of up to 2 GB.",
    );
    expect(
      refusal([medium("image", { size: 16 * 1024 * 1024 }), medium("file", { size: 2048 * 1024 * 1024 })]),
    ).toBeUndefined();
  });
});
