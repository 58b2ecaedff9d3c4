import { mediaCapabilityProblems, planMedia } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { nextcloudCapabilities, nextcloudChannel } from "./index.js";
import {
  NEXTCLOUD_DEFAULT_UPLOAD_BYTES,
  nextcloudFilesCapabilities,
  nextcloudLinkCapabilities,
  nextcloudMediaFor,
} from "./media.js";

describe("media capabilities", () => {
  it("the plugin declares link-only media: the bot API uploads nothing", () => {
    expect(nextcloudChannel.capabilities.media).toBe(nextcloudLinkCapabilities);
    expect(nextcloudCapabilities.media).toMatchObject({ send: [], linkOnly: true, caption: false, perMessage: 1 });
    expect(mediaCapabilityProblems(nextcloudLinkCapabilities)).toEqual([]);
  });

  it("core plans a link line for a link-only medium with a URL, and refuses one without", () => {
    const medium = { kind: "image" as const, size: 10, mime: "image/png", filename: "chart.png" };
    const plan = planMedia(
      { text: "here", media: [{ ...medium, link: "https://gw.example/v1/media/med_1?exp=1&sig=s" }] },
      nextcloudLinkCapabilities,
      { maxBytes: 1000, channel: "Nextcloud Talk" },
    );
    expect(plan.messages).toEqual([
      { media: [], text: "here" },
      { media: [], text: "chart.png: https://gw.example/v1/media/med_1?exp=1&sig=s" },
    ]);
    expect(() => planMedia({ media: [medium] }, nextcloudLinkCapabilities, { maxBytes: 1000 })).toThrow(
      /cannot upload media/,
    );
  });

  it("with files an account uploads every kind but stickers, captioned, one per message, up to its limit", () => {
    expect(nextcloudMediaFor({})).toBe(nextcloudLinkCapabilities);
    const files = nextcloudMediaFor({
      files: { user: "u", appPassword: "p", folder: "Talk", maxUploadBytes: 1234 },
    });
    expect(files).toEqual(nextcloudFilesCapabilities(1234));
    expect(files).toMatchObject({
      send: ["image", "video", "audio", "voice", "file"],
      caption: true,
      maxSendBytes: 1234,
    });
    expect(mediaCapabilityProblems(nextcloudFilesCapabilities())).toEqual([]);
    expect(nextcloudFilesCapabilities().maxSendBytes).toBe(NEXTCLOUD_DEFAULT_UPLOAD_BYTES);
  });
});
