/**
 * What the bytes of a medium are, read from its stream without holding it: the image formats
 * Feishu's image upload takes, whether audio is Opus in Ogg (what Feishu's voice messages play) and
 * how long it lasts, whether a video is MP4 (what its video messages play) and how long it lasts.
 * Feishu shows a voice or video message's duration only when the upload states it ("不填充时无法显示具体时长").
 */

/** Reads a byte stream piece by piece: exactly `n` bytes at a time (fewer only at its end), or skips them. */
class StreamReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  #buffered: Uint8Array = new Uint8Array(0);
  #done = false;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  async read(n: number): Promise<Uint8Array> {
    while (this.#buffered.byteLength < n && !this.#done) await this.#pull();
    const out = this.#buffered.subarray(0, n);
    this.#buffered = this.#buffered.subarray(out.byteLength);
    return out;
  }

  async skip(n: number): Promise<void> {
    let left = n;
    while (left > 0) {
      if (this.#buffered.byteLength === 0) {
        if (this.#done) return;
        await this.#pull();
        continue;
      }
      const dropped = Math.min(left, this.#buffered.byteLength);
      this.#buffered = this.#buffered.subarray(dropped);
      left -= dropped;
    }
  }

  async close(): Promise<void> {
    await this.#reader.cancel().catch(() => undefined);
  }

  async #pull(): Promise<void> {
    const { done, value } = await this.#reader.read();
    if (done) {
      this.#done = true;
      return;
    }
    const joined = new Uint8Array(this.#buffered.byteLength + value.byteLength);
    joined.set(this.#buffered);
    joined.set(value, this.#buffered.byteLength);
    this.#buffered = joined;
  }
}

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** Runs `probe` on a stream and always releases it. */
async function reading<T>(stream: ReadableStream<Uint8Array>, probe: (reader: StreamReader) => Promise<T>): Promise<T> {
  const reader = new StreamReader(stream);
  try {
    return await probe(reader);
  } finally {
    await reader.close();
  }
}

/**
 * The image format of a stream's first bytes, of those 上传图片 takes (JPG, JPEG, PNG, WEBP, GIF,
 * BMP, ICO, TIFF, HEIC), or undefined for anything else (SVG, AVIF, …), which Feishu refuses.
 */
export function imageFormat(stream: ReadableStream<Uint8Array>): Promise<string | undefined> {
  return reading(stream, async (reader) => {
    const head = await reader.read(16);
    if (head[0] === 0x89 && ascii(head, 1, 4) === "PNG") return "png";
    if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "jpeg";
    if (ascii(head, 0, 4) === "GIF8") return "gif";
    if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WEBP") return "webp";
    if (ascii(head, 0, 2) === "BM") return "bmp";
    if (head[0] === 0 && head[1] === 0 && head[2] === 1 && head[3] === 0) return "ico";
    if (ascii(head, 0, 4) === "II*\0" || ascii(head, 0, 4) === "MM\0*") return "tiff";
    if (ascii(head, 4, 8) === "ftyp" && /^(heic|heix|mif1|msf1)$/u.test(ascii(head, 8, 12))) return "heic";
    return undefined;
  });
}

/** What a probe found: whether the bytes are of the format, and the duration they state (milliseconds). */
export interface MediumFacts {
  readonly matches: boolean;
  readonly durationMs?: number;
}

/**
 * Whether a stream is Opus in Ogg (RFC 7845: the first page's packet starts `OpusHead`), and its
 * duration: the last page's granule position less the header's pre-skip, at 48 kHz. Walks the
 * pages' headers and skips their bodies.
 */
export function oggOpusFacts(stream: ReadableStream<Uint8Array>): Promise<MediumFacts> {
  return reading(stream, async (reader) => {
    let preSkip: number | undefined;
    let granule = -1;
    for (let page = 0; ; page++) {
      const header = await reader.read(27);
      if (header.byteLength < 27 || ascii(header, 0, 4) !== "OggS") break;
      const view = new DataView(header.buffer, header.byteOffset, 27);
      const position = view.getBigInt64(6, true); // -1: no packet ends on this page
      const segments = await reader.read(header[26] as number);
      const bodyBytes = segments.reduce((sum, size) => sum + size, 0);
      if (page === 0) {
        const body = await reader.read(bodyBytes);
        if (ascii(body, 0, 8) !== "OpusHead") return { matches: false };
        preSkip = new DataView(body.buffer, body.byteOffset, body.byteLength).getUint16(10, true);
      } else {
        await reader.skip(bodyBytes);
      }
      if (position >= 0n) granule = Number(position);
    }
    if (preSkip === undefined) return { matches: false };
    const samples = granule - preSkip;
    return samples > 0 ? { matches: true, durationMs: Math.round(samples / 48) } : { matches: true };
  });
}

/** The most of a `moov` box read to find the duration; the box is small beside the media data. */
const MAX_MOOV_BYTES = 16 * 1024 * 1024;

/**
 * Whether a stream is an MP4 (ISO/IEC 14496-12: it opens with an `ftyp` box; QuickTime's `qt  `
 * brand is not MP4) and its duration from the `moov` box's `mvhd` (duration / timescale). Walks the
 * top-level boxes and skips the media data, wherever `moov` is.
 */
export function mp4Facts(stream: ReadableStream<Uint8Array>): Promise<MediumFacts> {
  return reading(stream, async (reader) => {
    let first = true;
    for (;;) {
      const header = await reader.read(8);
      if (header.byteLength < 8) return { matches: !first };
      const view = new DataView(header.buffer, header.byteOffset, 8);
      let size = view.getUint32(0);
      const type = ascii(header, 4, 8);
      let headerBytes = 8;
      if (size === 1) {
        const large = await reader.read(8);
        if (large.byteLength < 8) return { matches: false };
        size = Number(new DataView(large.buffer, large.byteOffset, 8).getBigUint64(0));
        headerBytes = 16;
      }
      if (first) {
        if (type !== "ftyp") return { matches: false };
        const brand = await reader.read(4);
        if (ascii(brand, 0, 4) === "qt  ") return { matches: false };
        await reader.skip(size - headerBytes - 4);
        first = false;
        continue;
      }
      if (size === 0) return { matches: true }; // the last box runs to the end
      if (type === "moov" && size - headerBytes <= MAX_MOOV_BYTES) {
        const durationMs = movieDuration(await reader.read(size - headerBytes));
        return durationMs === undefined ? { matches: true } : { matches: true, durationMs };
      }
      await reader.skip(size - headerBytes);
    }
  });
}

/** The duration a `moov` box's `mvhd` states, in milliseconds. */
function movieDuration(moov: Uint8Array): number | undefined {
  const view = new DataView(moov.buffer, moov.byteOffset, moov.byteLength);
  for (let offset = 0; offset + 8 <= moov.byteLength; ) {
    const size = view.getUint32(offset);
    if (size < 8) return undefined;
    if (ascii(moov, offset + 4, offset + 8) === "mvhd" && offset + size <= moov.byteLength) {
      const version = moov[offset + 8];
      const [timescale, duration] =
        version === 1
          ? [view.getUint32(offset + 28), Number(view.getBigUint64(offset + 32))]
          : [view.getUint32(offset + 20), view.getUint32(offset + 24)];
      return timescale > 0 && duration > 0 ? Math.round((duration / timescale) * 1000) : undefined;
    }
    offset += size;
  }
  return undefined;
}
