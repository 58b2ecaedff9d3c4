import { tooLarge } from "@chorus/channel-kit";
import { ChorusError, formatBytes, type MediaCapabilities, type OutboundMedium } from "@chorus/core";

const MB = 1024 * 1024;

/**
 * Bytes of one file, sent or received. zca-js refuses a larger upload itself (`uploadAttachment`
 * and `sendMessage`: `fileSize > sharefile.max_size_share_file_v3 * 1024 * 1024`), the limit in MB
 * Zalo hands out at login (`getServerInfo` → `settings.features.sharefile`); 1024 in the settings
 * the fake serves, Zalo's 1 GB for files. Not verified against a live account: before every upload
 * the channel reads the session's own value (`checkAgainstSession`).
 */
export const ZALO_MAX_FILE_BYTES = 1024 * MB;

/**
 * Bytes of one photo: `sharefile.max_size_original_photo` (MB, 10 in the settings the fake serves).
 * zca-js does not check it; the channel does, so core sends a larger image as a file (DESIGN §2.6
 * rule 4) rather than have Zalo refuse it.
 */
export const ZALO_MAX_PHOTO_BYTES = 10 * MB;

/**
 * What Zalo Personal does with media through zca-js, as data (DESIGN §2.6). Out: photos (JPEG, PNG,
 * WebP through zca-js's photo upload; GIFs through its GIF call), files (`uploadAttachment`, then
 * `sendMessage`) and voice messages (the file uploaded, then `sendVoice` with its URL); one medium a
 * message (a Zalo message carries one). A photo carries its caption (`desc`); a file cannot (zca-js
 * sends text beside it as a message of its own), nor can a voice message. Videos go out as files
 * (zca-js's `sendVideo` needs a thumbnail image the channel does not have), audio as a file,
 * stickers as images (`sendSticker` sends only Zalo's catalogue stickers, by id), locations as text
 * (zca-js has no call for them). In: photos and GIFs, videos, voice messages, files, stickers (by
 * their catalogue id) and locations.
 */
export const zaloMediaCapabilities: MediaCapabilities = {
  send: ["image", "voice", "file"],
  receive: ["image", "video", "voice", "file", "sticker", "location"],
  maxSendBytes: ZALO_MAX_FILE_BYTES,
  maxSendBytesByKind: { image: ZALO_MAX_PHOTO_BYTES },
  maxReceiveBytes: ZALO_MAX_FILE_BYTES,
  caption: true,
  uncaptioned: ["file"],
  perMessage: 1,
};

/** Extensions zca-js sends through its photo upload (`uploadAttachment`: jpg, jpeg, png, webp). */
export const PHOTO_EXTENSIONS: readonly string[] = ["jpg", "jpeg", "png", "webp"];

/** The extension zca-js reads a name by (lower case; "" without one). */
export const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
};

/** The part of `settings.features.sharefile` zca-js and the channel read (MB where it says so). */
export interface ShareFileSettings {
  readonly max_size_share_file_v3?: number;
  readonly max_size_original_photo?: number;
  readonly restricted_ext_file?: readonly string[];
}

/** How a medium goes up: through the photo upload (and so its limit), or as a file. */
export type UploadPath = "photo" | "file";

/** `E_TOO_LARGE` over the declared limit of the path a medium takes: checked before anything is read or sent. */
export function checkDeclaredLimit(medium: OutboundMedium, path: UploadPath): void {
  const limit = path === "photo" ? ZALO_MAX_PHOTO_BYTES : ZALO_MAX_FILE_BYTES;
  if (medium.size > limit) throw tooLarge(`"${medium.filename}"`, limit, medium.size);
  if (medium.size === 0)
    throw new ChorusError("E_INVALID_INPUT", `"${medium.filename}" is empty: Zalo sends no empty files`);
}

/**
 * The session's own limits (what Zalo handed out at login), checked before a byte is uploaded:
 * `E_TOO_LARGE` over them, `E_UNSUPPORTED` for an extension Zalo refuses (`restricted_ext_file`,
 * which zca-js also checks).
 */
export function checkAgainstSession(
  medium: OutboundMedium,
  filename: string,
  path: UploadPath,
  sharefile: ShareFileSettings | undefined,
): void {
  const mb = path === "photo" ? sharefile?.max_size_original_photo : sharefile?.max_size_share_file_v3;
  if (typeof mb === "number" && mb > 0 && medium.size > mb * MB) {
    throw tooLarge(`"${medium.filename}"`, mb * MB, medium.size, {
      hint: `This Zalo session takes ${path === "photo" ? "photos" : "files"} of up to ${formatBytes(mb * MB)} (the limit Zalo handed out at login).`,
    });
  }
  const ext = extensionOf(filename);
  if (ext !== "" && sharefile?.restricted_ext_file?.includes(ext)) {
    throw new ChorusError(
      "E_UNSUPPORTED",
      `Zalo does not take files with the extension .${ext} ("${medium.filename}")`,
      {
        hint: "Send it packed in an archive, or in another format.",
      },
    );
  }
}
