import { randomBytes } from "node:crypto";
import { Redactor, streamOf, tooLarge } from "@chorus/channel-kit";
import {
  type Attachment,
  type ChannelCapabilities,
  ChorusError,
  type DownloadOptions,
  type MediaCapabilities,
} from "@chorus/core";
import { type MediaStore, type PutMediumOptions, type StoredMedium, sniffMedium } from "../media/index.js";
import { fullCapabilities } from "../testing/index.js";

/**
 * A small media store in memory, for tests of what reads attachments: streamed in under `maxBytes`
 * (`E_TOO_LARGE` past it, nothing kept), its type sniffed from the bytes by the real store's
 * sniffer, each put its own `med_` id.
 */
export class MemoryMediaStore implements MediaStore {
  readonly media = new Map<string, { medium: StoredMedium; bytes: Uint8Array }>();
  opens = 0;

  async put(bytes: ReadableStream<Uint8Array>, options: PutMediumOptions): Promise<StoredMedium> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of bytes) {
      size += chunk.byteLength;
      if (size > options.maxBytes) throw tooLarge("The medium", options.maxBytes);
      chunks.push(chunk);
    }
    const all = new Uint8Array(Buffer.concat(chunks));
    const { mime, kind } = await sniffMedium(all, true);
    const medium: StoredMedium = {
      mediaId: `med_${randomBytes(12).toString("base64url")}`,
      sha256: "",
      size,
      mime,
      kind,
      filename: options.filename ?? `${kind}.bin`,
      createdAt: Date.now(),
    };
    this.media.set(medium.mediaId, { medium, bytes: all });
    return medium;
  }

  async get(mediaId: string): Promise<StoredMedium | undefined> {
    return this.media.get(mediaId)?.medium;
  }

  async open(mediaId: string): Promise<{ medium: StoredMedium; stream: ReadableStream<Uint8Array> }> {
    const found = this.media.get(mediaId);
    if (!found) throw new ChorusError("E_MESSAGE_NOT_FOUND", `no medium ${mediaId}`);
    this.opens++;
    return { medium: found.medium, stream: streamOf(found.bytes) };
  }

  async prune(): Promise<number> {
    return 0;
  }
}

/** A file the test channel serves, by the `source.id` of an attachment. */
export interface ServedFile {
  bytes: Uint8Array;
  mime?: string;
}

/**
 * A channel account that delivered attachments and serves their bytes through `download`, as a
 * plugin does: capped at `maxBytes` (its `E_TOO_LARGE` names the limit), an unknown id is gone.
 */
export function testSource(files: Record<string, ServedFile>, media: Partial<MediaCapabilities> = {}) {
  const downloads: { id: string; maxBytes: number }[] = [];
  /** Ids whose next download fails as a platform's 503 does (retryable). */
  const failNext = new Set<string>();
  const capabilities: ChannelCapabilities = {
    ...fullCapabilities(),
    media: {
      send: [],
      receive: ["image", "video", "audio", "voice", "file", "sticker", "location", "contact"],
      maxSendBytes: 0,
      maxReceiveBytes: 20 * 1024 * 1024,
      caption: true,
      perMessage: 10,
      ...media,
    },
  };
  const instance = {
    async download(attachment: Attachment, options: DownloadOptions) {
      const id = String((attachment.source as { id?: unknown } | undefined)?.id);
      downloads.push({ id, maxBytes: options.maxBytes });
      if (failNext.delete(id)) throw new ChorusError("E_PLATFORM", "the platform answered 503", { retryable: true });
      const file = files[id];
      if (!file) throw new ChorusError("E_MESSAGE_NOT_FOUND", `file ${id} is gone (token secret-token-123)`);
      if (file.bytes.length > options.maxBytes)
        throw tooLarge(`the ${attachment.kind}`, options.maxBytes, file.bytes.length);
      return { stream: streamOf(file.bytes), size: file.bytes.length, ...(file.mime ? { mime: file.mime } : {}) };
    },
  };
  return {
    plugin: { id: "test", label: "Test", capabilities },
    capabilities,
    supervisor: { instance: instance as typeof instance | undefined },
    redactor: new Redactor(["secret-token-123"]),
    downloads,
    failNext,
  };
}
