import { downloadMedium, tooLarge } from "@chorus/channel-kit";
import { type Attachment, ChorusError, type DownloadedMedium, type DownloadOptions, formatBytes } from "@chorus/core";
import type { Api } from "grammy";
import type { TelegramFileSource } from "./attachments.js";
import type { TelegramConfig } from "./config.js";
import { TelegramApiError } from "./errors.js";
import { TELEGRAM_MAX_DOWNLOAD } from "./media.js";

/** A relative `file_path` as the Bot API gives it (`photos/file_0.jpg`): no `..`, no scheme, no leading `/`. */
const FILE_PATH = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/;

/**
 * Streams an attachment's bytes (DESIGN §3 `download`): `getFile` for its `file_path`, then the
 * file endpoint `<apiRoot>/file/bot<token>/<file_path>` ("https://api.telegram.org/file/bot<token>/<file_path>",
 * Bot API, getFile) through the kit's capped download. The token is part of that URL, so it goes
 * only to the configured `apiRoot`, and no error says the URL. A size Telegram states over
 * `maxBytes` fails before anything is downloaded; so does Telegram's own refusal of files over
 * 20 MB ("Bad Request: file is too big"); a body that grows past `maxBytes` fails there.
 */
export function createDownload(api: Api, config: Pick<TelegramConfig, "apiRoot" | "botToken">) {
  return async (attachment: Attachment, options: DownloadOptions): Promise<DownloadedMedium> => {
    const source = sourceOf(attachment);
    const what = `Telegram file ${source.fileUniqueId ?? source.fileId.slice(0, 24)}`;
    if (attachment.size !== undefined && attachment.size > options.maxBytes) {
      throw tooLarge(what, options.maxBytes, attachment.size);
    }
    const file = await api.getFile(source.fileId, options.signal as Parameters<Api["getFile"]>[1]).catch((error) => {
      if (error instanceof TelegramApiError && /file is too big/i.test(error.description)) {
        const limit = Math.min(options.maxBytes, TELEGRAM_MAX_DOWNLOAD);
        throw withHint(
          tooLarge(what, limit),
          `Telegram lets bots download files of up to ${formatBytes(TELEGRAM_MAX_DOWNLOAD)} (getFile).`,
        );
      }
      throw error;
    });
    if (file.file_size !== undefined && file.file_size > options.maxBytes) {
      throw tooLarge(what, options.maxBytes, file.file_size);
    }
    const path = file.file_path;
    if (path === undefined || !FILE_PATH.test(path)) {
      throw new ChorusError("E_PLATFORM", `Telegram gave no file path to download ${what} from`, {
        details: {
          filePath: path === undefined ? "none" : path.startsWith("/") ? "an absolute path" : "not a relative path",
        },
        hint: "A Bot API server in --local mode answers local paths; Chorus downloads over HTTP, so run it without --local.",
      });
    }
    const url = `${config.apiRoot}/file/bot${config.botToken}/${path}`;
    const medium = await downloadMedium(url, {
      maxBytes: options.maxBytes,
      what,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    // The file endpoint may answer octet-stream; what the update said is more telling then.
    const mime = medium.mime && medium.mime !== "application/octet-stream" ? medium.mime : attachment.mime;
    return {
      stream: medium.stream,
      ...(mime ? { mime } : {}),
      ...(medium.size !== undefined ? { size: medium.size } : {}),
    };
  };
}

function sourceOf(attachment: Attachment): TelegramFileSource {
  const source = attachment.source as { fileId?: unknown; fileUniqueId?: unknown } | null | undefined;
  if (typeof source?.fileId !== "string" || source.fileId === "") {
    throw new ChorusError("E_INVALID_INPUT", `This ${attachment.kind} attachment has no Telegram file to download`, {
      details: { kind: attachment.kind },
    });
  }
  return {
    fileId: source.fileId,
    ...(typeof source.fileUniqueId === "string" ? { fileUniqueId: source.fileUniqueId } : {}),
  };
}

function withHint(error: ChorusError, hint: string): ChorusError {
  return new ChorusError(error.code, error.message, { details: error.details ?? {}, hint });
}
