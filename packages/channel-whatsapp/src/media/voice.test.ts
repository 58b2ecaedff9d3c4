import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleMedium } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFfmpeg, transcodeToOpus } from "./ffmpeg.js";
import { headOf, isOggOpus, VOICE_HEAD_BYTES } from "./voice.js";

const streamOf = (bytes: Uint8Array) => new Blob([bytes]).stream();

describe("isOggOpus: what WhatsApp plays as a voice note", () => {
  it("Opus in Ogg is; MP3, Vorbis-in-Ogg, a PNG and nothing are not", async () => {
    expect(isOggOpus(await headOf(streamOf(sampleMedium("voice").bytes), VOICE_HEAD_BYTES))).toBe(true);
    expect(isOggOpus(sampleMedium("audio").bytes)).toBe(false);
    const vorbis = Buffer.from(sampleMedium("voice").bytes);
    vorbis.write("\u0001vorbis\u0000", 28, "latin1");
    expect(isOggOpus(vorbis)).toBe(false);
    expect(isOggOpus(sampleMedium("image").bytes)).toBe(false);
    expect(isOggOpus(new Uint8Array())).toBe(false);
  });

  it("headOf reads only the head of a long stream", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(100));
      },
    });
    expect((await headOf(endless, 250)).byteLength).toBe(250);
    expect(pulled).toBeLessThan(10);
  });
});

describe("ffmpeg: finding it and transcoding a voice note (Debian's ffmpeg, as on CI)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "chorus-wa-ffmpeg-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("is found on PATH; a configured path that does not exist or cannot run is none", async () => {
    expect(await findFfmpeg(), "ffmpeg must be on PATH: bash scripts/ensure-ffmpeg.sh").toMatch(/\/ffmpeg$/);
    expect(await findFfmpeg(join(dir, "no-ffmpeg"))).toBeUndefined();
    const notRunnable = join(dir, "ffmpeg");
    await writeFile(notRunnable, "#!/bin/sh\n", { mode: 0o644 });
    expect(await findFfmpeg(notRunnable)).toBeUndefined();
    expect(await findFfmpeg("no-such-program-chorus")).toBeUndefined();
  });

  it("turns an MP3 into Ogg/Opus, streamed", async () => {
    const ffmpeg = (await findFfmpeg()) as string;
    const out = transcodeToOpus(ffmpeg, streamOf(sampleMedium("audio").bytes));
    const chunks: Buffer[] = [];
    for await (const chunk of out) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    expect(isOggOpus(bytes)).toBe(true);
    expect(bytes.byteLength).toBeGreaterThan(100);
  });

  it("input ffmpeg cannot read errors the output with ffmpeg's words, never ends it cut short", async () => {
    const ffmpeg = (await findFfmpeg()) as string;
    const out = transcodeToOpus(ffmpeg, streamOf(new TextEncoder().encode("not audio at all")));
    const read = async () => {
      for await (const _chunk of out) {
        // drain
      }
    };
    await expect(read()).rejects.toThrow(/^ffmpeg could not make an Ogg\/Opus voice note: .+/);
  });
});
