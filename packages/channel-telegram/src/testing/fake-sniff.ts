/** What the fake checks of uploaded bytes, by their first bytes (as Telegram's servers look at the file, not its name). */

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/** A picture `sendPhoto` can process: JPEG, PNG, GIF, WebP or BMP. */
export function isImage(bytes: Uint8Array): boolean {
  return (
    (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) ||
    ascii(bytes, 0, "\x89PNG") ||
    ascii(bytes, 0, "GIF8") ||
    isWebp(bytes) ||
    ascii(bytes, 0, "BM")
  );
}

/** A RIFF WebP file. */
export function isWebp(bytes: Uint8Array): boolean {
  return ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP");
}

/** An Ogg stream whose first packet is an Opus header: what Telegram plays as a voice note. */
export function isOggOpus(bytes: Uint8Array): boolean {
  return ascii(bytes, 0, "OggS") && ascii(bytes, 28, "OpusHead");
}

/** MP3 (an ID3 tag or an MPEG audio frame) or M4A (an MP4 `ftyp` box of an audio brand). */
export function isMp3OrM4a(bytes: Uint8Array): boolean {
  const frame = bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0;
  return ascii(bytes, 0, "ID3") || frame || (ascii(bytes, 4, "ftyp") && ascii(bytes, 8, "M4A"));
}

/** What `sendSticker` takes: WebP, TGS (gzip) or WEBM (EBML). */
export function stickerFormat(bytes: Uint8Array): "static" | "animated" | "video" | undefined {
  if (isWebp(bytes)) return "static";
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return "animated";
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return "video";
  return undefined;
}

/** Width and height of a PNG (its IHDR) or a lossless/lossy WebP; undefined for anything else. */
export function dimensionsOf(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (ascii(bytes, 0, "\x89PNG") && bytes.length >= 24)
    return { width: view.getUint32(16), height: view.getUint32(20) };
  if (isWebp(bytes) && ascii(bytes, 12, "VP8L") && bytes.length >= 25) {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (isWebp(bytes) && ascii(bytes, 12, "VP8 ") && bytes.length >= 30) {
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  }
  return undefined;
}
