import { NOISE_WA_HEADER } from "@whiskeysockets/baileys";
import { fakeProtocolError } from "./errors.js";

/** Length of the big-endian size prefix of every frame. */
const SIZE_BYTES = 3;

/** Prefixes `payload` with its 3-byte big-endian length, as every WhatsApp frame is. */
export function frame(payload: Uint8Array): Buffer {
  const out = Buffer.alloc(SIZE_BYTES + payload.byteLength);
  out.writeUIntBE(payload.byteLength, 0, SIZE_BYTES);
  out.set(payload, SIZE_BYTES);
  return out;
}

/**
 * Splits the client's byte stream into frames. The first chunk starts with the intro header:
 * `WA` + version + dictionary version, optionally preceded by an `ED` edge-routing block.
 */
export class FrameReader {
  #pending: Buffer = Buffer.alloc(0);
  #sawIntro = false;

  /** Adds received bytes; returns the frames they completed, in order. */
  push(chunk: Uint8Array): Buffer[] {
    let bytes: Buffer = Buffer.from(chunk);
    if (!this.#sawIntro) {
      bytes = stripIntro(bytes);
      this.#sawIntro = true;
    }
    this.#pending = this.#pending.length === 0 ? bytes : Buffer.concat([this.#pending, bytes]);
    const frames: Buffer[] = [];
    while (this.#pending.length >= SIZE_BYTES) {
      const size = this.#pending.readUIntBE(0, SIZE_BYTES);
      if (this.#pending.length < SIZE_BYTES + size) break;
      frames.push(this.#pending.subarray(SIZE_BYTES, SIZE_BYTES + size));
      this.#pending = this.#pending.subarray(SIZE_BYTES + size);
    }
    return frames;
  }
}

function stripIntro(bytes: Buffer): Buffer {
  let offset = 0;
  if (bytes.subarray(0, 2).toString("latin1") === "ED") {
    // "ED", 0, 1, 3-byte length, routing info, then the WA header.
    offset = 7 + bytes.readUIntBE(4, 3);
  }
  const header = bytes.subarray(offset, offset + NOISE_WA_HEADER.length);
  if (!header.equals(NOISE_WA_HEADER)) {
    throw fakeProtocolError(`the client did not open with the WA intro header (got ${header.toString("hex")})`);
  }
  return bytes.subarray(offset + NOISE_WA_HEADER.length);
}
