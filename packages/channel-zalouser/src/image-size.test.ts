import { sampleMedium } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { imageSize } from "./image-size.js";

describe("imageSize (the width and height zca-js sends with a photo)", () => {
  it("reads PNG, WebP and GIF headers", () => {
    expect(imageSize(sampleMedium("image").bytes)).toEqual({ width: 16, height: 16 });
    expect(imageSize(sampleMedium("sticker").bytes)).toEqual({ width: 512, height: 512 });
    const gif = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
    expect(imageSize(gif)).toEqual({ width: 1, height: 1 });
  });

  it("reads a JPEG's first frame header, past the segments before it", () => {
    const app0 = [0xff, 0xe0, 0x00, 0x04, 0x00, 0x00];
    const sof0 = [0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03];
    const jpeg = Uint8Array.from([0xff, 0xd8, ...app0, ...sof0, ...new Array(12).fill(0)]);
    expect(imageSize(jpeg)).toEqual({ width: 640, height: 480 });
  });

  it("gives nothing for what it cannot read", () => {
    expect(imageSize(sampleMedium("file").bytes)).toBeUndefined();
    expect(imageSize(new Uint8Array([0xff, 0xd8, 0x00]))).toBeUndefined();
  });
});
