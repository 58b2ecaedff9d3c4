import type { FakeResponse } from "@chorus/testkit";
import type { Message, User } from "grammy/types";
import type { FakeFile, FakeFiles, FakeFileType } from "./fake-files.js";
import { type MediumFacts, mediumFields } from "./fake-medium.js";
import { type FakeMethod, isRefusal, type SendTarget, sendTarget } from "./fake-methods.js";
import { type Params, UploadedFile } from "./fake-requests.js";
import { isImage, isMp3OrM4a, isOggOpus, stickerFormat } from "./fake-sniff.js";
import type { FakeTelegramState } from "./fake-state.js";
import { fail, ok } from "./fake-updates.js";

/** Characters of a caption (Bot API: "0-1024 characters after entities parsing"). */
const MAX_CAPTION = 1024;
const CAPTION_TOO_LONG = "Bad Request: message caption is too long";

/** A send method of one medium: its file field, the name in "there is no … in the request", the file type. */
const SINGLE: Record<string, { field: string; what: string; type: FakeFileType }> = {
  sendPhoto: { field: "photo", what: "photo", type: "photo" },
  sendVideo: { field: "video", what: "video", type: "video" },
  sendAnimation: { field: "animation", what: "animation", type: "animation" },
  sendAudio: { field: "audio", what: "audio", type: "audio" },
  sendVoice: { field: "voice", what: "voice", type: "voice" },
  sendDocument: { field: "document", what: "document", type: "document" },
  sendSticker: { field: "sticker", what: "sticker", type: "sticker" },
};

/** `InputMedia` types an album takes (sendMediaGroup) and the file type each becomes. */
const ALBUM_TYPES: Record<string, FakeFileType> = {
  photo: "photo",
  video: "video",
  audio: "audio",
  document: "document",
};

/** A file a call names: uploaded with it, or one Telegram has (by `file_id`). */
type Input = { upload: UploadedFile } | { file: FakeFile };

/**
 * The fake's media methods, with the Bot API's rules and error texts (telegram-bot-api `Client.cpp`
 * process_send_*_query, get_input_file, get_input_media; TDLib's album checks; see
 * `fixtures/SOURCES.md` for each text): a file comes in its own field, or as `attach://<part>`
 * naming a multipart part, or as the `file_id` of a file Telegram has; a photo must be an image of
 * at most `limits.photoBytes`, a sticker WebP, TGS or WEBM; bytes `sendVoice` cannot play as a
 * voice note (not OGG/Opus, MP3 or M4A) become a document, as the Bot API says other formats go.
 */
export function fakeMediaMethods(state: FakeTelegramState, files: FakeFiles, bot: User): Record<string, FakeMethod> {
  const sender: User = { id: bot.id, is_bot: true, first_name: bot.first_name, username: bot.username as string };
  const post = (target: SendTarget, fields: Partial<Message>): Message => {
    const sent = state.postMessage(target.chat.id, sender, {
      ...fields,
      ...(target.replyTo !== undefined ? { replyTo: target.replyTo } : {}),
      ...(target.threadId !== undefined ? { threadId: target.threadId } : {}),
    });
    state.hooks.botMessage?.(sent);
    return sent;
  };

  const single =
    (method: string): FakeMethod =>
    (p) => {
      const { field, what, type } = SINGLE[method] as (typeof SINGLE)[string];
      const target = sendTarget(state, p);
      if (isRefusal(target)) return target;
      const input = inputOf(p, p[field]);
      if (input === undefined) return fail(400, `Bad Request: there is no ${what} in the request`);
      if (isRefusal(input)) return input;
      const caption = typeof p.caption === "string" && p.caption !== "" ? p.caption : undefined;
      if (caption !== undefined && caption.length > MAX_CAPTION) return fail(400, CAPTION_TOO_LONG);
      const stored = store(type, input);
      if (isRefusal(stored)) return stored;
      const facts: MediumFacts = {
        ...(caption !== undefined ? { caption } : {}),
        ...(typeof p.emoji === "string" ? { emoji: p.emoji } : {}),
      };
      return ok(post(target, mediumFields(files, stored.type, stored.file, facts)));
    };

  /** Checks and stores what a call uploads, as the file type Telegram makes of it. */
  const store = (type: FakeFileType, input: Input): { type: FakeFileType; file: FakeFile } | FakeResponse => {
    if ("file" in input) return { type, file: input.file };
    const { bytes, filename, type: mime } = input.upload;
    if (type === "photo" && bytes.byteLength > files.limits.photoBytes) {
      return fail(400, "Bad Request: PHOTO_SAVE_FILE_INVALID");
    }
    if (type === "photo" && !isImage(bytes)) return fail(400, "Bad Request: IMAGE_PROCESS_FAILED");
    if (type === "sticker" && stickerFormat(bytes) === undefined) {
      return fail(400, "Bad Request: STICKER_DOCUMENT_INVALID");
    }
    const voice = type === "voice" && (isOggOpus(bytes) || isMp3OrM4a(bytes));
    const as: FakeFileType = type === "voice" && !voice ? "document" : type;
    const kept = as === "voice" && isOggOpus(bytes) ? "audio/ogg" : mime || "application/octet-stream";
    return { type: as, file: files.add(as, bytes, kept, filename || undefined) };
  };

  /** What a file field names: a part uploaded in it, `attach://<part>`, or a `file_id`; a refusal for anything else. */
  const inputOf = (p: Params, value: unknown): Input | FakeResponse | undefined => {
    if (value instanceof UploadedFile) return { upload: value };
    if (typeof value !== "string" || value === "") return undefined;
    if (value.startsWith("attach://")) {
      const part = p[value.slice("attach://".length)];
      return part instanceof UploadedFile ? { upload: part } : undefined;
    }
    const file = files.byId(value);
    return file ? { file } : fail(400, "Bad Request: wrong file identifier/HTTP URL specified");
  };

  return {
    ...Object.fromEntries(Object.keys(SINGLE).map((method) => [method, single(method)])),
    sendMediaGroup: (p) => {
      const target = sendTarget(state, p);
      if (isRefusal(target)) return target;
      const media = p.media;
      if (typeof media === "string") return fail(400, "Bad Request: can't parse media JSON object");
      if (!Array.isArray(media)) return fail(400, "Bad Request: expected an Array of InputMedia");
      const items: { type: FakeFileType; input: Input; caption?: string }[] = [];
      for (const raw of media as Record<string, unknown>[]) {
        const kind = String(raw?.type ?? "");
        if (kind === "animation") {
          return fail(400, `Bad Request: can't parse InputMedia: type "animation" can't be used in sendMediaGroup`);
        }
        const type = ALBUM_TYPES[kind];
        if (!type) return fail(400, `Bad Request: can't parse InputMedia: type "${kind}" is unsupported`);
        const input = inputOf(p, raw.media);
        if (input === undefined) return fail(400, "Bad Request: can't parse InputMedia: media not found");
        if (isRefusal(input)) return input;
        const caption = typeof raw.caption === "string" && raw.caption !== "" ? raw.caption : undefined;
        if (caption !== undefined && caption.length > MAX_CAPTION) return fail(400, CAPTION_TOO_LONG);
        items.push({ type, input, ...(caption !== undefined ? { caption } : {}) });
      }
      if (items.length > 10) return fail(400, "Bad Request: too many messages to send as an album");
      if (items.length === 0) return fail(400, "Bad Request: there are no messages to send");
      const types = new Set(items.map((item) => item.type));
      for (const alone of ["audio", "document"] as const) {
        if (types.has(alone) && types.size > 1) {
          return fail(400, `Bad Request: ${alone} can't be mixed with other media types`);
        }
      }
      const stored: { type: FakeFileType; file: FakeFile; caption?: string }[] = [];
      for (const item of items) {
        const one = store(item.type, item.input);
        if (isRefusal(one)) return one;
        stored.push({ ...one, ...(item.caption !== undefined ? { caption: item.caption } : {}) });
      }
      const group = String(13_000_000_000_000_000n + BigInt(state.messages.size));
      const sent = stored.map((item) =>
        post(target, {
          ...mediumFields(files, item.type, item.file, item.caption !== undefined ? { caption: item.caption } : {}),
          media_group_id: group,
        }),
      );
      return ok(sent);
    },
    sendLocation: (p) => {
      const target = sendTarget(state, p);
      if (isRefusal(target)) return target;
      const place = placeOf(p);
      if (isRefusal(place)) return place;
      return ok(post(target, { location: place }));
    },
    sendVenue: (p) => {
      const target = sendTarget(state, p);
      if (isRefusal(target)) return target;
      const place = placeOf(p);
      if (isRefusal(place)) return place;
      const venue = { location: place, title: String(p.title ?? ""), address: String(p.address ?? "") };
      // A venue message carries its place as `location` too (Client.cpp, messageVenue).
      return ok(post(target, { location: place, venue } as Partial<Message>));
    },
    getFile: (p) => {
      const file = typeof p.file_id === "string" ? files.byId(p.file_id) : undefined;
      if (!file) return fail(400, "Bad Request: wrong file_id or the file is temporarily unavailable");
      if (file.declaredSize > files.limits.downloadBytes) return fail(400, "Bad Request: file is too big");
      return ok({ ...files.fields(file), file_path: file.path });
    },
  };
}

/** `latitude` and `longitude` of a call (Client.cpp get_location: "latitude is empty", …). */
function placeOf(p: Params): { latitude: number; longitude: number } | FakeResponse {
  const latitude = String(p.latitude ?? "").trim();
  if (latitude === "") return fail(400, "Bad Request: latitude is empty");
  const longitude = String(p.longitude ?? "").trim();
  if (longitude === "") return fail(400, "Bad Request: longitude is empty");
  return { latitude: Number(latitude), longitude: Number(longitude) };
}
