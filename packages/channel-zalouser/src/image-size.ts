/**
 * An image's width and height read from its header (PNG, JPEG, GIF, WebP), for the `metadata`
 * zca-js wants with a photo it uploads from bytes (it sends them as the photo's `width` and
 * `height`). Undefined for anything else: zca-js then leaves them out.
 */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (from: number, to: number) => data.toString("latin1", from, to);
  const found = (width: number, height: number) => (width > 0 && height > 0 ? { width, height } : undefined);
  if (data.length >= 24 && ascii(1, 4) === "PNG") return found(data.readUInt32BE(16), data.readUInt32BE(20));
  if (data.length >= 10 && ascii(0, 3) === "GIF") return found(data.readUInt16LE(6), data.readUInt16LE(8));
  if (data.length >= 30 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return webpSize(data);
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8) return jpegSize(data);
  return undefined;
}

function webpSize(data: Buffer): { width: number; height: number } | undefined {
  const chunk = data.toString("latin1", 12, 16);
  if (chunk === "VP8 ") return { width: data.readUInt16LE(26) & 0x3fff, height: data.readUInt16LE(28) & 0x3fff };
  if (chunk === "VP8L") {
    const bits = data.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") return { width: data.readUIntLE(24, 3) + 1, height: data.readUIntLE(27, 3) + 1 };
  return undefined;
}

/** The size in the first start-of-frame marker (SOF0–SOF15, not DHT, JPG or DAC). */
function jpegSize(data: Buffer): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < data.length) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1] as number;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: data.readUInt16BE(at + 7), height: data.readUInt16BE(at + 5) };
    }
    at += 2 + data.readUInt16BE(at + 2);
  }
  return undefined;
}
