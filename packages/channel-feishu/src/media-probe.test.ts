import { sampleMedium } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { imageFormat, mp4Facts, oggOpusFacts } from "./media-probe.js";

/** `bytes` as a stream of chunks of `size` bytes, so probes meet headers split across chunks. */
function chunked(bytes: Uint8Array, size = 7): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

/** An MP4 whose `moov` comes after its media data, as cameras write it (no "fast start"). */
function moovLast(mp4: Uint8Array): Uint8Array {
  const view = new DataView(mp4.buffer, mp4.byteOffset, mp4.byteLength);
  const boxes: Uint8Array[] = [];
  for (let offset = 0; offset < mp4.byteLength; offset += view.getUint32(offset)) {
    boxes.push(mp4.subarray(offset, offset + view.getUint32(offset)));
  }
  const type = (box: Uint8Array) => String.fromCharCode(...box.subarray(4, 8));
  const moov = boxes.filter((box) => type(box) === "moov");
  const reordered = [...boxes.filter((box) => type(box) !== "moov"), ...moov];
  return new Uint8Array(Buffer.concat(reordered));
}

describe("media probes", () => {
  it("tell Ogg/Opus from other audio, with the duration the last page's granule gives", async () => {
    const voice = await oggOpusFacts(chunked(sampleMedium("voice").bytes));
    expect(voice.matches).toBe(true);
    // The sample is a half-second tone.
    expect(voice.durationMs).toBeGreaterThan(400);
    expect(voice.durationMs).toBeLessThan(600);
    expect(await oggOpusFacts(chunked(sampleMedium("audio").bytes))).toEqual({ matches: false });
    expect(await oggOpusFacts(chunked(new Uint8Array(0)))).toEqual({ matches: false });
  });

  it("tell MP4 from other bytes, with the duration of its mvhd wherever the moov box is", async () => {
    const video = sampleMedium("video").bytes;
    expect(await mp4Facts(chunked(video))).toEqual({ matches: true, durationMs: 1000 });
    expect(await mp4Facts(chunked(moovLast(video), 64))).toEqual({ matches: true, durationMs: 1000 });
    expect(await mp4Facts(chunked(sampleMedium("file").bytes))).toEqual({ matches: false });
  });

  it("name the image formats Feishu's image upload takes, and nothing else", async () => {
    expect(await imageFormat(chunked(sampleMedium("image").bytes, 3))).toBe("png");
    expect(await imageFormat(chunked(sampleMedium("sticker").bytes))).toBe("webp");
    expect(await imageFormat(chunked(new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>")))).toBe(
      undefined,
    );
  });
});
