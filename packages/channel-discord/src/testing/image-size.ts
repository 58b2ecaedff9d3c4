/**
 * The pixel size of a PNG, GIF, WebP or JPEG, read from its header, for the `width`/`height` Discord
 * sets on image attachments; undefined for anything else.
 */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (start: number, end: number) => data.toString("latin1", start, end);
  if (data.length >= 24 && ascii(1, 4) === "PNG" && ascii(12, 16) === "IHDR") {
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data.length >= 10 && ascii(0, 4) === "GIF8") return { width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  if (data.length >= 30 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return webpSize(data, ascii(12, 16));
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8) return jpegSize(data);
  return undefined;
}

function webpSize(data: Buffer, chunk: string): { width: number; height: number } | undefined {
  if (chunk === "VP8 ") return { width: data.readUInt16LE(26) & 0x3fff, height: data.readUInt16LE(28) & 0x3fff };
  if (chunk === "VP8L") {
    const bits = data.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") return { width: data.readUIntLE(24, 3) + 1, height: data.readUIntLE(27, 3) + 1 };
  return undefined;
}

/** Walks the JPEG segments to the first start-of-frame marker (SOF0–SOF15 but DHT, JPG, DAC). */
function jpegSize(data: Buffer): { width: number; height: number } | undefined {
  let offset = 2;
  while (offset + 9 < data.length && data[offset] === 0xff) {
    const marker = data[offset + 1] as number;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: data.readUInt16BE(offset + 7), height: data.readUInt16BE(offset + 5) };
    }
    offset += 2 + data.readUInt16BE(offset + 2);
  }
  return undefined;
}
