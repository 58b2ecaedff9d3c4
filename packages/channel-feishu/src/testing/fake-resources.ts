import { randomUUID } from "node:crypto";

/** `file_type` of `POST /open-apis/im/v1/files` (上传文件: opus, mp4, pdf, doc, xls, ppt, stream). */
export const FILE_TYPES = ["opus", "mp4", "pdf", "doc", "xls", "ppt", "stream"] as const;
export type FakeFileType = (typeof FILE_TYPES)[number];

/** One medium the fake Feishu holds: an uploaded image or file, or one a person sent. */
export interface FakeResource {
  /** `img_v3_…` for images, `file_v3_…` for files, audio, video and stickers. */
  readonly key: string;
  /** Which `type` the message-resource API wants for it; stickers cannot be downloaded at all. */
  readonly kind: "image" | "file" | "sticker";
  readonly bytes: Uint8Array;
  readonly mime: string;
  readonly filename?: string;
  /** Files the app uploaded: the `file_type` it said, which decides the message type that may carry it. */
  readonly fileType?: FakeFileType;
  /** Images the app uploaded: `message` or `avatar`. */
  readonly imageType?: string;
  /** The `duration` the uploader gave (milliseconds). */
  readonly durationMs?: number;
  /** `app` for the app's uploads, else the open_id of the person who sent it. */
  readonly owner: string;
}

/** The image formats 上传图片 takes: JPG, JPEG, PNG, WEBP, GIF, BMP, ICO, TIFF, HEIC. */
export function imageFormatOf(bytes: Uint8Array): string | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes[0] === 0x89 && ascii(1, 4) === "PNG") return "png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (ascii(0, 4) === "GIF8") return "gif";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  if (ascii(0, 2) === "BM") return "bmp";
  if (bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 1 && bytes[3] === 0) return "ico";
  if (ascii(0, 4) === "II*\0" || ascii(0, 4) === "MM\0*") return "tiff";
  if (ascii(4, 8) === "ftyp" && /^(heic|heix|mif1|msf1)$/u.test(ascii(8, 12))) return "heic";
  return undefined;
}

/**
 * Every medium of the fake Feishu, by key, and how many bytes its downloads served (so a capped
 * download that stops early shows as such). Keys are opaque strings shaped like Feishu's.
 */
export class FakeResources {
  readonly #byKey = new Map<string, FakeResource>();
  /** Bytes written for message-resource downloads so far. */
  bytesServed = 0;

  /** Stores a medium under a fresh key of its kind, or under `key` (a documented example's). */
  add(resource: Omit<FakeResource, "key">, key?: string): FakeResource {
    const prefix = resource.kind === "image" ? "img_v3" : "file_v3";
    const stored = { ...resource, key: key ?? `${prefix}_${randomUUID()}` };
    this.#byKey.set(stored.key, stored);
    return stored;
  }

  get(key: string): FakeResource | undefined {
    return this.#byKey.get(key);
  }

  /** The keys of the media a message's content (a JSON string) carries: its own, and a post's `img` and `media` elements. */
  static keysIn(msgType: string, content: string): string[] {
    let body: unknown;
    try {
      body = JSON.parse(content);
    } catch {
      return [];
    }
    const keys: string[] = [];
    const collect = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value !== null && typeof value === "object") {
        for (const [name, inner] of Object.entries(value)) {
          if ((name === "image_key" || name === "file_key") && typeof inner === "string") keys.push(inner);
          else collect(inner);
        }
      }
    };
    if (msgType !== "text") collect(body);
    return keys;
  }
}
