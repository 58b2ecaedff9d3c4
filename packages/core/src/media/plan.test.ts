import { describe, expect, it } from "vitest";
import { ChorusError } from "../errors.js";
import type { MediaCapabilities } from "./capabilities.js";
import { locationText, type MediumToPlan, planMedia } from "./plan.js";

const MB = 1024 * 1024;
const LIMIT = { maxBytes: 25 * MB, channel: "Acme" };

/** A platform with albums and captions (Telegram's shape). */
const albums: MediaCapabilities = {
  send: ["image", "video", "audio", "voice", "file", "sticker", "location"],
  receive: ["image", "file"],
  maxSendBytes: 50 * MB,
  maxReceiveBytes: 20 * MB,
  caption: true,
  perMessage: 10,
};
/** Per-kind limits, one item a message, no captions (Feishu's shape). */
const perKind: MediaCapabilities = {
  send: ["image", "file", "audio"],
  receive: ["image"],
  maxSendBytes: 30 * MB,
  maxSendBytesByKind: { image: 10 * MB },
  maxReceiveBytes: 30 * MB,
  caption: false,
  perMessage: 1,
};
/** Several files per message under one request cap (Discord's shape). */
const requestCap: MediaCapabilities = {
  send: ["image", "file"],
  receive: ["image"],
  maxSendBytes: 10 * MB,
  maxReceiveBytes: 25 * MB,
  caption: true,
  perMessage: 10,
  maxMessageBytes: 10 * MB,
};
/** No uploads at all (Nextcloud Talk's bot API). */
const linkOnly: MediaCapabilities = {
  send: [],
  receive: ["image"],
  maxSendBytes: 0,
  maxReceiveBytes: 10 * MB,
  caption: false,
  perMessage: 1,
  linkOnly: true,
};

function medium(kind: MediumToPlan["kind"], size = 1000, extra: Partial<MediumToPlan> = {}): MediumToPlan {
  const ext = { image: "png", video: "mp4", audio: "mp3", voice: "ogg", file: "pdf", sticker: "webp" }[kind];
  return { kind, size, mime: "application/octet-stream", filename: `${kind}.${ext}`, ...extra };
}

function thrown(run: () => unknown): ChorusError {
  try {
    run();
  } catch (error) {
    if (error instanceof ChorusError) return error;
    throw error;
  }
  throw new Error("expected a ChorusError");
}

describe("planMedia — DESIGN §2.6 rule 3: fallbacks", () => {
  it("sends a kind the channel has as itself", () => {
    const plan = planMedia({ media: [medium("voice")] }, albums, LIMIT);
    expect(plan.sentAs).toEqual(["voice"]);
    expect(plan.messages).toEqual([{ media: [{ index: 0, as: "voice" }] }]);
  });

  it("voice → audio → file, sticker → image → file, video → file", () => {
    const plan = planMedia({ media: [medium("voice"), medium("sticker"), medium("video")] }, perKind, LIMIT);
    expect(plan.sentAs).toEqual(["audio", "image", "file"]);
    const onlyFiles: MediaCapabilities = { ...perKind, send: ["file"] };
    expect(
      planMedia({ media: [medium("voice"), medium("sticker"), medium("image")] }, onlyFiles, LIMIT).sentAs,
    ).toEqual(["file", "file", "file"]);
  });

  it("nothing left to fall back to → a link line when the medium has a URL the recipient can open", () => {
    const noFiles: MediaCapabilities = { ...perKind, send: ["image"] };
    const plan = planMedia({ media: [medium("file", 10, { link: "https://files.example/r.pdf" })] }, noFiles, LIMIT);
    expect(plan.sentAs).toEqual(["link"]);
    expect(plan.messages).toEqual([{ media: [], text: "file.pdf: https://files.example/r.pdf" }]);
  });

  it("nothing left and no URL → E_UNSUPPORTED naming what the channel sends, before anything is planned", () => {
    const noFiles: MediaCapabilities = { ...perKind, send: ["image"] };
    const error = thrown(() => planMedia({ text: "here", media: [medium("image"), medium("file")] }, noFiles, LIMIT));
    expect(error.code).toBe("E_UNSUPPORTED");
    expect(error.message).toBe("Acme cannot send a file (nor anything it falls back to); it sends image.");
    expect(error.hint).toContain("image");
  });

  it("a link-only channel sends every medium as a link line, in order, and refuses one without a URL", () => {
    const plan = planMedia(
      {
        text: "two files",
        media: [
          medium("image", 10, { link: "https://g.example/m/1" }),
          medium("file", 10, { link: "https://g.example/m/2" }),
        ],
      },
      linkOnly,
      LIMIT,
    );
    expect(plan.sentAs).toEqual(["link", "link"]);
    expect(plan.messages).toEqual([
      { media: [], text: "two files" },
      { media: [], text: "image.png: https://g.example/m/1\nfile.pdf: https://g.example/m/2" },
    ]);
    const error = thrown(() => planMedia({ media: [medium("image")] }, linkOnly, LIMIT));
    expect(error.code).toBe("E_UNSUPPORTED");
    expect(error.message).toContain("cannot upload media");
    expect(error.hint).toContain("gateway.publicUrl");
  });
});

describe("planMedia — rule 4: limits", () => {
  it("over its kind's limit but within a fallback's → sent as that kind (an 11 MB image on Feishu)", () => {
    expect(planMedia({ media: [medium("image", 11 * MB)] }, perKind, LIMIT).sentAs).toEqual(["file"]);
  });

  it("over every limit it could use → E_TOO_LARGE naming the limits", () => {
    const error = thrown(() =>
      planMedia({ media: [medium("image", 31 * MB)] }, perKind, { maxBytes: 100 * MB, channel: "Feishu" }),
    );
    expect(error.code).toBe("E_TOO_LARGE");
    expect(error.message).toBe('"image.png" is 31 MB; Feishu takes images up to 10 MB and files up to 30 MB.');
    expect(error.details).toMatchObject({ size: 31 * MB, limit: 30 * MB });
  });

  it("over the gateway's media.maxBytes → E_TOO_LARGE naming it, even where the channel takes more", () => {
    const error = thrown(() => planMedia({ media: [medium("video", 26 * MB)] }, albums, LIMIT));
    expect(error.code).toBe("E_TOO_LARGE");
    expect(error.message).toBe('"video.mp4" is 26 MB; media are limited to 25 MB (media.maxBytes).');
  });

  it("a request cap limits one item too", () => {
    const error = thrown(() => planMedia({ media: [medium("file", 11 * MB)] }, requestCap, LIMIT));
    expect(error.code).toBe("E_TOO_LARGE");
    expect(error.message).toContain("10 MB");
  });

  it("one item over the limit fails the whole call: nothing is planned", () => {
    expect(() =>
      planMedia({ media: [medium("image"), medium("image", 60 * MB)] }, albums, { maxBytes: 100 * MB }),
    ).toThrow(/this channel takes/);
  });
});

describe("planMedia — rule 5: text, captions, splitting, locations", () => {
  it("text becomes the caption of the first item where the channel has captions", () => {
    const plan = planMedia({ text: "Look", media: [medium("image"), medium("image")] }, albums, LIMIT);
    expect(plan.messages).toEqual([
      {
        media: [
          { index: 0, as: "image", caption: "Look" },
          { index: 1, as: "image" },
        ],
      },
    ]);
  });

  it("without captions the text is a message of its own, sent first; so is an item's own caption", () => {
    const plan = planMedia(
      { text: "Look", media: [medium("image"), medium("image", 10, { caption: "second" })] },
      perKind,
      LIMIT,
    );
    expect(plan.messages).toEqual([
      { media: [], text: "Look" },
      { media: [{ index: 0, as: "image" }] },
      { media: [], text: "second" },
      { media: [{ index: 1, as: "image" }] },
    ]);
  });

  it("the call's text and the first item's caption travel together", () => {
    const plan = planMedia({ text: "Report", media: [medium("file", 10, { caption: "Q3" })] }, albums, LIMIT);
    expect(plan.messages).toEqual([{ media: [{ index: 0, as: "file", caption: "Report\n\nQ3" }] }]);
  });

  it("a voice note or a sticker cannot carry the text: it goes first, and the item is a message of its own", () => {
    const plan = planMedia({ text: "Listen", media: [medium("voice"), medium("image")] }, albums, LIMIT);
    expect(plan.messages).toEqual([
      { media: [{ index: 0, as: "voice" }] },
      { media: [{ index: 1, as: "image", caption: "Listen" }] },
    ]);
    const onlyVoice = planMedia({ text: "Listen", media: [medium("voice")] }, albums, LIMIT);
    expect(onlyVoice.messages).toEqual([{ media: [], text: "Listen" }, { media: [{ index: 0, as: "voice" }] }]);
  });

  it("a kind the channel lists as uncaptioned (WhatsApp audio) cannot carry the text either", () => {
    const noAudioCaption: MediaCapabilities = { ...albums, perMessage: 1, uncaptioned: ["audio"] };
    const plan = planMedia({ text: "Listen", media: [medium("audio")] }, noAudioCaption, LIMIT);
    expect(plan.messages).toEqual([{ media: [], text: "Listen" }, { media: [{ index: 0, as: "audio" }] }]);
    const image = planMedia({ text: "Look", media: [medium("image")] }, noAudioCaption, LIMIT);
    expect(image.messages).toEqual([{ media: [{ index: 0, as: "image", caption: "Look" }] }]);
  });

  it("more items than perMessage become several messages, in order", () => {
    const twelve = Array.from({ length: 12 }, () => medium("image"));
    const plan = planMedia({ media: twelve }, albums, LIMIT);
    expect(plan.messages.map((m) => m.media.map((i) => i.index))).toEqual([
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      [10, 11],
    ]);
  });

  it("items over maxMessageBytes together are split so each message stays under it", () => {
    const plan = planMedia(
      { media: [medium("file", 6 * MB), medium("file", 3 * MB), medium("file", 2 * MB)] },
      requestCap,
      LIMIT,
    );
    expect(plan.messages.map((m) => m.media.map((i) => i.index))).toEqual([[0, 1], [2]]);
  });

  it("a location is a native pin where the channel has one", () => {
    const location = { latitude: 52.52, longitude: 13.405, name: "Alexanderplatz" };
    const plan = planMedia({ text: "Meet here", media: [], location }, albums, LIMIT);
    expect(plan.messages).toEqual([
      { media: [], text: "Meet here" },
      { media: [], location },
    ]);
    expect(plan.sentAs).toEqual(["location"]);
  });

  it("a location elsewhere is text: name and address, the coordinates, and an OpenStreetMap link", () => {
    const location = { latitude: 52.52, longitude: 13.405, name: "Alexanderplatz", address: "10178 Berlin" };
    const plan = planMedia({ media: [], location }, perKind, LIMIT);
    expect(plan.sentAs).toEqual(["text"]);
    expect(plan.messages).toEqual([
      {
        media: [],
        text: "Alexanderplatz, 10178 Berlin\n52.52, 13.405\nhttps://www.openstreetmap.org/?mlat=52.52&mlon=13.405#map=16/52.52/13.405",
      },
    ]);
    expect(locationText({ latitude: 1, longitude: 2 })).toBe(
      "1, 2\nhttps://www.openstreetmap.org/?mlat=1&mlon=2#map=16/1/2",
    );
  });

  it("sentAs has one entry per item, then the location", () => {
    const plan = planMedia(
      { media: [medium("image"), medium("voice")], location: { latitude: 0, longitude: 0 } },
      perKind,
      LIMIT,
    );
    expect(plan.sentAs).toEqual(["image", "audio", "text"]);
  });

  it("is pure: the same input gives the same plan", () => {
    const input = { text: "a", media: [medium("image"), medium("voice"), medium("file", 2 * MB)] };
    expect(planMedia(input, requestCap, LIMIT)).toEqual(planMedia(input, requestCap, LIMIT));
  });
});
