import { streamOf } from "@chorus/channel-kit";
import type { OutboundMedium, UploadKind } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { type TelegramStep, telegramSteps } from "./media-steps.js";

const medium = (kind: UploadKind, extra: Partial<OutboundMedium> = {}): OutboundMedium => ({
  kind,
  mime: "application/octet-stream",
  filename: `${kind}.bin`,
  size: 10,
  open: () => streamOf(new Uint8Array(10)),
  ...extra,
});

/** A step as a short word: `text`, `photo`, `album(image,video)`, `pin`. */
const shape = (step: TelegramStep) =>
  step.kind === "album"
    ? `album(${step.items.map((i) => i.medium.kind).join(",")})`
    : step.kind === "single"
      ? step.item.medium.kind
      : step.kind;

describe("telegramSteps: one outbound message as Bot API sends", () => {
  it("the text first (in 4096-character parts), then the media, then the pin", () => {
    const steps = telegramSteps({
      text: "x".repeat(5000),
      media: [medium("image")],
      location: { latitude: 1, longitude: 2 },
    });
    expect(steps.map(shape)).toEqual(["text", "text", "image", "location"]);
  });

  it("an album holds at most 10 items and 50 MB (one request): the rest goes in the next one", () => {
    const eleven = Array.from({ length: 11 }, () => medium("image"));
    expect(telegramSteps({ text: "", media: eleven }).map(shape)).toEqual([
      `album(${Array(10).fill("image").join(",")})`,
      "image",
    ]);
    const big = [30, 30, 10].map((mb) => medium("video", { size: mb * 1024 * 1024 }));
    expect(telegramSteps({ text: "", media: big }).map(shape)).toEqual(["video", "album(video,video)"]);
  });

  it("voice notes and stickers are never in an album; captions stay on their item", () => {
    const steps = telegramSteps({
      text: "",
      media: [
        medium("image", { caption: "one" }),
        medium("sticker"),
        medium("image"),
        medium("voice"),
        medium("video"),
      ],
    });
    expect(steps.map(shape)).toEqual(["image", "sticker", "image", "voice", "video"]);
    expect(steps[0]).toEqual({ kind: "single", item: { medium: expect.anything(), caption: "one" } });
  });

  it("a caption over 1024 characters goes as text right before the send carrying its medium", () => {
    const long = "y".repeat(1025);
    const steps = telegramSteps({
      text: "",
      media: [medium("file"), medium("file", { caption: long }), medium("image")],
    });
    expect(steps.map(shape)).toEqual(["text", "album(file,file)", "image"]);
    expect(steps[0]).toEqual({ kind: "text", text: long });
    expect(steps[1]?.kind === "album" && steps[1].items.map((i) => i.caption)).toEqual([undefined, undefined]);
  });
});
