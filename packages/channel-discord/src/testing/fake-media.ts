import { attachmentPath, type CdnFile, FakeCdn } from "./fake-cdn.js";
import type {
  AttachmentLinks,
  FakeAttachment,
  FakeDiscordState,
  FakeMessage,
  FakeSticker,
  FakeUser,
} from "./fake-state.js";
import { imageSize } from "./image-size.js";

/** A file a person attaches. */
export interface UserFile {
  bytes: Uint8Array;
  filename: string;
  /** The attachment's `content_type`; Discord may leave it out. */
  contentType?: string;
  description?: string;
}

/** IS_VOICE_MESSAGE (resources/message.mdx "Message Flags"). */
export const IS_VOICE_MESSAGE = 1 << 13;

/** What a sticker's `format_type` is served as on the CDN (developers/reference.mdx "CDN Endpoints"). */
const STICKER_FILES: Record<FakeSticker["format_type"], { extension: string; contentType: string }> = {
  1: { extension: "png", contentType: "image/png" },
  2: { extension: "png", contentType: "image/png" },
  3: { extension: "json", contentType: "application/json" },
  4: { extension: "gif", contentType: "image/gif" },
};

/** The fake Discord's media side: its CDN, and people sending files, voice messages and stickers. */
export interface FakeMediaControls {
  readonly cdn: FakeCdn;
  /** A person sends files and/or stickers (with text, or none): MESSAGE_CREATE with `attachments` / `sticker_items`. */
  userSendsMedia(input: {
    channelId: string;
    author: FakeUser;
    content?: string;
    files?: UserFile[];
    stickerIds?: string[];
    replyTo?: string;
  }): FakeMessage;
  /**
   * A person records a voice message: flag IS_VOICE_MESSAGE, no text, one audio attachment with
   * `duration_secs` and `waveform` (resources/message.mdx "Voice Messages").
   */
  userSendsVoice(input: {
    channelId: string;
    author: FakeUser;
    bytes: Uint8Array;
    durationSecs: number;
    contentType?: string;
  }): FakeMessage;
  /** A guild sticker, served from the CDN's `stickers/<id>.<ext>`. */
  addSticker(sticker: FakeSticker): void;
  /** Every attachment URL signed so far expires: the CDN's clock passes their `ex`. */
  expireAttachmentUrls(): void;
}

/** The CDN of `state`'s attachments and stickers, and the controls that put media on messages. */
export function createFakeMedia(
  state: FakeDiscordState,
  created: (message: FakeMessage) => void,
  lifetimeMs?: number,
): FakeMediaControls {
  const cdn = new FakeCdn((path) => cdnFile(state, path), lifetimeMs);
  const links: AttachmentLinks = {
    attachment: (channelId, attachment) => {
      const path = attachmentPath(channelId, attachment.id, attachment.filename);
      return { url: cdn.signed(path), proxy_url: cdn.signed(path, "media") };
    },
  };
  state.links = links;
  const post = (
    input: { channelId: string; author: FakeUser; content?: string; replyTo?: string; stickerIds?: string[] },
    attachments: Omit<FakeAttachment, "id">[],
    flags = 0,
  ): FakeMessage => {
    const message = state.postMessage({
      channelId: input.channelId,
      author: input.author,
      content: input.content ?? "",
      attachments,
      flags,
      ...(input.replyTo ? { replyTo: input.replyTo } : {}),
      ...(input.stickerIds ? { stickerIds: input.stickerIds } : {}),
    });
    created(message);
    return message;
  };
  return {
    cdn,
    userSendsMedia: (input) => post(input, (input.files ?? []).map(attachmentOf)),
    userSendsVoice(input) {
      // One byte per point, at most 256 points (resources/message.mdx "Voice Messages").
      const points = Math.min(256, Math.max(1, Math.round(input.durationSecs * 10)));
      const waveform = Buffer.from(Array.from({ length: points }, (_, i) => (i * 37) % 256)).toString("base64");
      const voice: Omit<FakeAttachment, "id"> = {
        filename: "voice-message.ogg",
        size: input.bytes.byteLength,
        content_type: input.contentType ?? "audio/ogg",
        duration_secs: input.durationSecs,
        waveform,
        bytes: input.bytes,
      };
      return post(input, [voice], IS_VOICE_MESSAGE);
    },
    addSticker: (sticker) => state.stickers.set(sticker.id, sticker),
    expireAttachmentUrls: () => cdn.advance(lifetimeMs ?? 86_400_000),
  };
}

function attachmentOf(file: UserFile): Omit<FakeAttachment, "id"> {
  const size = file.contentType?.startsWith("image/") ? imageSize(file.bytes) : undefined;
  return {
    filename: file.filename,
    size: file.bytes.byteLength,
    bytes: file.bytes,
    ...(file.contentType ? { content_type: file.contentType } : {}),
    ...(size ?? {}),
    ...(file.description ? { description: file.description } : {}),
  };
}

/** The file at a CDN path: an attachment of a message, or a sticker in the format its extension names. */
function cdnFile(state: FakeDiscordState, path: string): CdnFile | undefined {
  const attachment = /^\/attachments\/(\d+)\/(\d+)\/([^/]+)$/.exec(path);
  if (attachment) {
    const found = state.attachments.get(attachment[2] as string);
    if (!found || found.channelId !== attachment[1]) return undefined;
    if (encodeURIComponent(found.attachment.filename) !== attachment[3]) return undefined;
    return { bytes: found.attachment.bytes, contentType: found.attachment.content_type };
  }
  const sticker = /^\/stickers\/(\d+)\.(\w+)$/.exec(path);
  const found = sticker ? state.stickers.get(sticker[1] as string) : undefined;
  if (!found || STICKER_FILES[found.format_type].extension !== sticker?.[2]) return undefined;
  return { bytes: found.bytes, contentType: STICKER_FILES[found.format_type].contentType };
}
