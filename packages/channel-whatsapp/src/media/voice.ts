/** Bytes read to tell an Ogg/Opus stream: the first page's header, its segment table and the packet's magic. */
export const VOICE_HEAD_BYTES = 27 + 255 + 8;

/**
 * Whether `head` (the first bytes of a file) begins an Ogg stream whose first packet is an Opus
 * identification header: the page's capture pattern `OggS`, then after its segment table the
 * packet `OpusHead` (RFC 7845 §5.1). What WhatsApp plays as a voice note (a PTT).
 */
export function isOggOpus(head: Uint8Array): boolean {
  const ascii = (from: number, length: number) => Buffer.from(head.subarray(from, from + length)).toString("latin1");
  if (head.byteLength < 28 || ascii(0, 4) !== "OggS") return false;
  const segments = head[26] ?? 0;
  return ascii(27 + segments, 8) === "OpusHead";
}

/** The first `bytes` of a stream (fewer when it is shorter); the rest is not read. */
export async function headOf(stream: ReadableStream<Uint8Array>, bytes: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < bytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, bytes);
}
