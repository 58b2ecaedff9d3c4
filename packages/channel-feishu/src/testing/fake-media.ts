import type { GeoLocation, MediaKind } from "@chorus/core";
import { type PlatformMessageMedia, sampleMedium } from "@chorus/testkit";
import type { FakeIm } from "./fake-im.js";
import type { FakeResource, FakeResources } from "./fake-resources.js";
import type { FakeFeishuState, FakeMessage, FakeUser } from "./fake-state.js";

/** A medium someone sends, in the terms of the Feishu client. */
export interface UserMediumInput {
  chatId: string;
  from: FakeUser;
  /**
   * What the client makes of it: `image` an image message, `video` a `media` message (with the cover
   * the client takes), `voice` an `audio` message (a voice recording), `file` and `audio` (a music
   * file) a file message, `sticker` a sticker message, `location` a location message.
   */
  kind: MediaKind;
  bytes?: Uint8Array;
  mime?: string;
  filename?: string;
  durationMs?: number;
  location?: GeoLocation;
  /** With an image or video: a text typed beside it, which makes the client send a rich-text `post`. */
  caption?: string;
  replyTo?: string;
}

/** What each message type shows as, in core's kinds. */
const KIND_OF_TYPE: Record<string, PlatformMessageMedia["media"][number]["kind"]> = {
  image: "image",
  media: "video",
  audio: "voice",
  file: "file",
  sticker: "sticker",
};

/**
 * People's media on the fake Feishu and what the bot's media messages hold: a person's medium is
 * stored as the client uploads it and sent as the message type the client makes of it; a bot's
 * message is read back with the bytes the app uploaded for it.
 */
export class FakeFeishuMedia {
  constructor(
    private readonly state: FakeFeishuState,
    readonly resources: FakeResources,
    private readonly im: FakeIm,
    private readonly textOf: (message: FakeMessage) => string,
  ) {}

  /** Bytes the message-resource downloads served so far. */
  get bytesServed(): number {
    return this.resources.bytesServed;
  }

  /** Someone sends a medium; resolves once Feishu delivered it (as `userSends` does). */
  async userSends(input: UserMediumInput): Promise<FakeMessage> {
    const { msgType, content } = this.#content(input);
    const message = this.state.postMessage({
      chatId: input.chatId,
      sender: { id: input.from.open_id, id_type: "open_id", sender_type: "user", tenant_key: this.state.tenantKey },
      msgType,
      content: JSON.stringify(content),
      ...(input.replyTo ? { parentId: input.replyTo } : {}),
    });
    await this.im.userSends(message, input.from);
    return message;
  }

  /** The media of a message as Feishu holds them: the bytes behind its keys, or its text. */
  messageMedia(messageId: string): PlatformMessageMedia {
    const message = this.state.messages.get(messageId);
    if (!message) throw new Error(`fake Feishu: no message ${messageId}`);
    const kind = KIND_OF_TYPE[message.msg_type];
    if (!kind) return { media: [], text: this.textOf(message) };
    const body = JSON.parse(message.body.content) as { image_key?: string; file_key?: string };
    const resource = this.resources.get(String(message.msg_type === "image" ? body.image_key : body.file_key));
    if (!resource) throw new Error(`fake Feishu: message ${messageId} names no medium it holds`);
    return {
      media: [{ kind, bytes: resource.bytes, ...(resource.filename ? { filename: resource.filename } : {}) }],
    };
  }

  #store(input: UserMediumInput, kind: FakeResource["kind"], fallbackName: string): FakeResource {
    if (!input.bytes) throw new Error(`fake Feishu: a ${input.kind} needs its bytes`);
    return this.resources.add({
      kind,
      bytes: input.bytes,
      mime: input.mime ?? "application/octet-stream",
      filename: input.filename ?? fallbackName,
      ...(input.durationMs !== undefined ? { durationMs: input.durationMs } : {}),
      owner: input.from.open_id,
    });
  }

  /** The message the Feishu client makes of a medium (接收消息内容结构). */
  #content(input: UserMediumInput): { msgType: string; content: Record<string, unknown> } {
    const caption = input.caption ? [[{ tag: "text", text: input.caption }]] : undefined;
    switch (input.kind) {
      case "image": {
        const image = this.#store(input, "image", "image.png").key;
        if (!caption) return { msgType: "image", content: { image_key: image } };
        return { msgType: "post", content: { title: "", content: [[{ tag: "img", image_key: image }], ...caption] } };
      }
      case "video": {
        const video = this.#store(input, "file", "video.mp4");
        const cover = this.#cover(input.from).key;
        const duration = input.durationMs ?? 1000;
        if (caption) {
          const element = { tag: "media", file_key: video.key, image_key: cover };
          return { msgType: "post", content: { title: "", content: [[element], ...caption] } };
        }
        const content = { file_key: video.key, image_key: cover, file_name: video.filename, duration };
        return { msgType: "media", content };
      }
      case "voice": {
        const voice = this.#store(input, "file", "voice.opus");
        return { msgType: "audio", content: { file_key: voice.key, duration: input.durationMs ?? 1000 } };
      }
      case "audio":
      case "file": {
        const file = this.#store(input, "file", "file.bin");
        return { msgType: "file", content: { file_key: file.key, file_name: file.filename } };
      }
      case "sticker":
        return { msgType: "sticker", content: { file_key: this.#store(input, "sticker", "sticker").key } };
      case "location": {
        const place = input.location;
        if (!place) throw new Error("fake Feishu: a location needs its place");
        // Coordinates as strings, as the docs' and Lark's own client parsers show them.
        const content = {
          name: place.name ?? "",
          longitude: String(place.longitude),
          latitude: String(place.latitude),
        };
        return { msgType: "location", content };
      }
    }
  }

  /** The cover image the client takes of a video. */
  #cover(from: FakeUser): FakeResource {
    const { bytes, mime } = sampleMedium("image");
    return this.resources.add({ kind: "image", bytes, mime, owner: from.open_id });
  }
}
