import { collectBytes, withTimeout } from "@chorus/channel-kit";
import { ChorusError, type OutboundMedium } from "@chorus/core";
import { type API, type AttachmentSource, ThreadType } from "zca-js";
import { imageSize } from "./image-size.js";
import {
  checkAgainstSession,
  checkDeclaredLimit,
  extensionOf,
  PHOTO_EXTENSIONS,
  type ShareFileSettings,
  type UploadPath,
} from "./media.js";
import type { ThreadKind } from "./refs.js";
import type { ZaloCaller } from "./zalo/caller.js";
import { clientIdOf } from "./zalo/client-id.js";

/** What Zalo made of a medium the bot sent: the message's ids and type, and its caption. */
export interface SentMedium {
  readonly msgId: string;
  readonly cliMsgId: string;
  readonly msgType: string;
  readonly caption: string;
}

/** The extension a photo of each type is uploaded with (zca-js picks its photo upload by it). */
const PHOTO_TYPES: Readonly<Record<string, string>> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" };

/** How zca-js would send a medium: photo upload, its GIF call, or as a file (voice messages too). */
function routeOf(medium: OutboundMedium): UploadPath | "gif" {
  if (medium.kind !== "image") return "file";
  const type = medium.mime.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "image/gif") return "gif";
  return PHOTO_TYPES[type] ? "photo" : "file";
}

/** Whether Zalo shows a caption with this medium: a photo's `desc`, a GIF's text zca-js sends just before it. */
export const carriesCaption = (medium: OutboundMedium): boolean => {
  const route = routeOf(medium);
  return route === "photo" || route === "gif";
};

/**
 * The name zca-js gets: it picks the upload by the extension alone. A photo keeps a photo
 * extension (its type's when it has none), a GIF ends in `.gif`; a file or voice message whose name
 * would send it through the photo or GIF upload gets `.file` added, or Zalo would show it as an image.
 */
export function uploadName(medium: OutboundMedium, route: UploadPath | "gif"): string {
  const name = medium.filename.trim() === "" ? medium.kind : medium.filename.trim();
  const ext = extensionOf(name);
  if (route === "photo") {
    const type = PHOTO_TYPES[medium.mime.split(";")[0]?.trim().toLowerCase() ?? ""] ?? "jpg";
    return PHOTO_EXTENSIONS.includes(ext) ? name : `${name}.${type}`;
  }
  if (route === "gif") return name.endsWith(".gif") ? name : `${name}.gif`;
  return PHOTO_EXTENSIONS.includes(ext) || ext === "gif" ? `${name}.file` : name;
}

/** What sending a medium needs of the instance. */
export interface MediaSenderDeps {
  call: ZaloCaller;
  /** How long an upload may wait for Zalo's `file_done` (zca-js waits without a limit). */
  uploadTimeoutMs: number;
}

/**
 * Sends one medium through zca-js's own calls, checked before anything is read against the
 * declared limits, then against the session's (`settings.features.sharefile`); zca-js takes bytes,
 * not streams, so the medium is read whole (capped at its size) once it passed them:
 * - a photo: `sendMessage` with it as the attachment (zca-js uploads it to `photo_original/upload`,
 *   then sends it with the caption as its `desc`);
 * - a GIF: `sendMessage` too (zca-js's `upthumb` and `gif` calls); its caption goes first as text;
 * - a file: `sendMessage` (zca-js uploads it in chunks to `asyncfile/upload`, waits for the
 *   listener's `file_done` with its URL, then sends it with `asyncfile/msg`); no caption;
 * - a voice message: `uploadAttachment` (as a file), then `sendVoice` with the URL Zalo gave it.
 */
export function createMediaSender(deps: MediaSenderDeps) {
  const { call } = deps;
  const confirmed = <T>(upload: Promise<T>, what: string) =>
    withTimeout(
      upload,
      deps.uploadTimeoutMs,
      () =>
        new ChorusError("E_PLATFORM", `Zalo did not confirm the upload of ${what} within ${deps.uploadTimeoutMs} ms`, {
          retryable: false,
          hint: "Zalo says a file is stored over the listener: check that the channel is connected (status), or raise uploadTimeoutMs.",
        }),
    );

  /** The medium as zca-js's attachment source, after the session's checks. */
  const sourceOf = async (api: API, medium: OutboundMedium, name: string, route: UploadPath | "gif") => {
    const path: UploadPath = route === "photo" ? "photo" : "file";
    const settings = (api.getContext().settings as { features?: { sharefile?: ShareFileSettings } } | undefined)
      ?.features?.sharefile;
    checkAgainstSession(medium, name, path, settings);
    const bytes = await collectBytes(medium.open(), medium.size, `"${medium.filename}"`);
    if (bytes.byteLength !== medium.size) {
      throw new ChorusError(
        "E_INVALID_INPUT",
        `"${medium.filename}" gave ${bytes.byteLength} bytes, not its size ${medium.size}`,
      );
    }
    const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const size = route === "file" ? {} : (imageSize(bytes) ?? {});
    return { data, filename: name as `${string}.${string}`, metadata: { totalSize: medium.size, ...size } };
  };

  return async function sendMedium(
    target: { threadId: string; kind: ThreadKind },
    medium: OutboundMedium,
    caption: string,
  ): Promise<SentMedium> {
    const route = routeOf(medium);
    const path: UploadPath = route === "photo" ? "photo" : "file";
    // Before a byte is read: a medium over what Zalo takes is refused, nothing is sent.
    checkDeclaredLimit(medium, path);
    const name = uploadName(medium, route);
    const what = `"${medium.filename}"`;
    const type = target.kind === "group" ? ThreadType.Group : ThreadType.User;
    if (medium.kind === "voice") {
      const { result: uploaded } = await call(
        `upload the voice message ${what}`,
        async (api) =>
          confirmed(api.uploadAttachment([await sourceOf(api, medium, name, route)], target.threadId, type), what),
        true,
      );
      const voiceUrl = (uploaded[0] as { fileUrl?: unknown } | undefined)?.fileUrl;
      if (typeof voiceUrl !== "string") throw new ChorusError("E_PLATFORM", `Zalo gave no URL for ${what}`);
      const sent = await call(
        `send a voice message to ${target.threadId}`,
        (api) => api.sendVoice({ voiceUrl }, target.threadId, type),
        false,
      );
      return {
        msgId: String(sent.result.msgId),
        cliMsgId: clientIdOf(sent.facts, sent.api),
        msgType: "chat.voice",
        caption: "",
      };
    }
    // A photo carries its caption as `desc`; zca-js sends a GIF's first, as text; a file has none.
    const msg = path === "photo" || route === "gif" ? caption : "";
    const sent = await call(
      `send ${what} to ${target.threadId}`,
      async (api) => {
        const source: AttachmentSource = await sourceOf(api, medium, name, route);
        const sending = api.sendMessage({ msg, attachments: [source] }, target.threadId, type);
        return route === "file" ? confirmed(sending, what) : sending;
      },
      false,
    );
    const msgId = sent.result.attachment.at(-1)?.msgId;
    if (msgId === undefined) throw new ChorusError("E_PLATFORM", `Zalo accepted ${what} but returned no msgId`);
    const msgType = route === "photo" ? "chat.photo" : route === "gif" ? "chat.gif" : "share.file";
    return {
      msgId: String(msgId),
      cliMsgId: clientIdOf(sent.facts, sent.api),
      msgType,
      caption: route === "photo" ? caption : "",
    };
  };
}

/** Sends one medium to a conversation (see `createMediaSender`). */
export type MediaSender = ReturnType<typeof createMediaSender>;
