import { isChorusError } from "@chorus/core";
import { getMediaKeys } from "@whiskeysockets/baileys";
import { describe, expect, it } from "vitest";
import { encryptMedium } from "../testing/media-crypto.js";
import { decryptMedium, type MediaChecks } from "./decrypt.js";

const plain = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 7) % 256));

/** A medium as the fake's "phone" encrypts it, and the keys Baileys expands its media key to. */
async function encrypted() {
  const medium = encryptMedium(plain, "Image");
  const { iv, cipherKey, macKey } = await getMediaKeys(medium.mediaKey, "image");
  const checks: MediaChecks = {
    fileEncSha256: medium.fileEncSha256,
    fileSha256: medium.fileSha256,
    fileLength: medium.fileLength,
  };
  return { medium, keys: { iv, cipherKey, macKey: macKey as Uint8Array }, checks };
}

/** Runs `enc` through the decryptor in chunks of `size` bytes; resolves with the bytes or the error. */
async function run(enc: Buffer, keys: Awaited<ReturnType<typeof encrypted>>["keys"], checks: MediaChecks, size = 64) {
  const chunks: Buffer[] = [];
  for (let at = 0; at < enc.byteLength; at += size) chunks.push(enc.subarray(at, at + size));
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new Uint8Array(chunk));
      controller.close();
    },
  });
  try {
    return Buffer.from(
      await new Response(source.pipeThrough(decryptMedium(keys, checks, "WhatsApp image x"))).arrayBuffer(),
    );
  } catch (error) {
    return error;
  }
}

describe("decryptMedium: WhatsApp media decrypted and checked as they stream", () => {
  it("gives the plain bytes whatever the chunks (the MAC may straddle two)", async () => {
    const { medium, keys, checks } = await encrypted();
    for (const size of [1, 5, 10, 11, 16, 17, 100, medium.enc.byteLength]) {
      expect(await run(medium.enc, keys, checks, size), `chunks of ${size}`).toEqual(plain);
    }
  });

  it("a flipped bit in the ciphertext or the MAC fails the MAC check", async () => {
    const { medium, keys } = await encrypted();
    for (const at of [0, 500, medium.enc.byteLength - 1]) {
      const damaged = Buffer.from(medium.enc);
      damaged[at] = (damaged[at] ?? 0) ^ 1;
      const error = await run(damaged, keys, {});
      expect(isChorusError(error) && error.code).toBe("E_PLATFORM");
      expect(String((error as Error).message)).toBe(
        "WhatsApp image x failed its integrity check: its MAC does not match its media key.",
      );
    }
  });

  it("bytes that do not match the message's hashes or length fail, and so does a body shorter than a MAC", async () => {
    const { medium, keys, checks } = await encrypted();
    const other = Buffer.alloc(32, 1);
    expect(String(await run(medium.enc, keys, { ...checks, fileEncSha256: other }))).toContain(
      "its SHA-256 is not the one the message states",
    );
    expect(String(await run(medium.enc, keys, { ...checks, fileSha256: other }))).toContain(
      "what it decrypts to is not what the message states",
    );
    expect(String(await run(medium.enc, keys, { ...checks, fileLength: 999 }))).toContain(
      "it decrypts to 1000 bytes, the message states 999",
    );
    expect(String(await run(medium.enc.subarray(0, 6), keys, {}))).toContain("it is shorter than its MAC");
  });

  it("the wrong media key (another kind's keys) fails before anything decrypts", async () => {
    const { medium } = await encrypted();
    const { iv, cipherKey, macKey } = await getMediaKeys(medium.mediaKey, "audio");
    const error = await run(medium.enc, { iv, cipherKey, macKey: macKey as Uint8Array }, {});
    expect(String(error)).toContain("its MAC does not match its media key");
  });
});
