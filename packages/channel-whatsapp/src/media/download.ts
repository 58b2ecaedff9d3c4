import { anySignal, capStream, downloadMedium, tooLarge } from "@chorus/channel-kit";
import { type Attachment, ChorusError, type DownloadedMedium, type DownloadOptions } from "@chorus/core";
import {
  DEFAULT_ORIGIN,
  getMediaKeys,
  getUrlFromDirectPath,
  type MediaConnInfo,
  type MediaType,
} from "@whiskeysockets/baileys";
import { withRetries } from "../retry.js";
import { MEDIA_TYPES, type WhatsAppMediaSource } from "./attachments.js";
import { decryptMedium, ENCRYPTION_OVERHEAD } from "./decrypt.js";

/** What downloading needs from the instance. */
export interface DownloadDeps {
  /** WhatsApp's current `media_conn` (its hosts), on the open socket. */
  readonly mediaConnection: () => Promise<MediaConnInfo>;
  readonly retries: number;
  readonly signal: AbortSignal;
}

/** A direct path as WhatsApp gives them (`/v/t62.7118-24/…enc?ccb=…`): a path on the host, nothing that could name another. */
const DIRECT_PATH = /^\/[^\s\\]*$/;

/**
 * Streams an attachment's bytes (DESIGN §3 `download`) the way WhatsApp clients fetch media: from
 * the media host WhatsApp's server named in its last `media_conn` answer (Baileys' own
 * `refreshMediaConn`, the host its `downloadContentFromMessage` uses), at
 * `https://<host><directPath>` — never from a host the message itself names — then decrypted with
 * the keys the message's media key expands to and checked (`decryptMedium`). No credential goes
 * with it: the media key never leaves the device. A size the message states over `maxBytes` fails
 * before anything is fetched; so does a host answering more (Content-Length), and a body that
 * grows past it stops there. A medium the host no longer has (404, 410: WhatsApp keeps media for
 * a limited time) is `E_MESSAGE_NOT_FOUND`.
 */
export function createDownload(deps: DownloadDeps) {
  return async (attachment: Attachment, options: DownloadOptions): Promise<DownloadedMedium> => {
    const source = sourceOf(attachment);
    const what =
      `WhatsApp ${attachment.kind} ${source.directPath.split("?")[0]?.split("/").at(-1)?.slice(0, 24) ?? ""}`.trim();
    const size = source.fileLength ?? attachment.size;
    if (size !== undefined && size > options.maxBytes) throw tooLarge(what, options.maxBytes, size);
    // The caller's signal and the instance's: a stop cancels the lookup and the download too.
    const signal = options.signal ? anySignal([deps.signal, options.signal]) : deps.signal;
    const connection = await withRetries(() => deps.mediaConnection(), {
      retries: deps.retries,
      what: "media host lookup",
      signal,
    });
    const host = connection.hosts[0]?.hostname;
    if (!host)
      throw new ChorusError("E_PLATFORM", "WhatsApp named no media host to download from", { retryable: true });
    const url = getUrlFromDirectPath(source.directPath, host);
    const { iv, cipherKey, macKey } = await getMediaKeys(Buffer.from(source.mediaKey, "base64"), source.type);
    if (!macKey) throw new ChorusError("E_PLATFORM", `${what} has no MAC key to check it with`);
    const encrypted = await downloadMedium(url, {
      maxBytes: options.maxBytes + ENCRYPTION_OVERHEAD,
      what,
      // What WhatsApp Web sends (Baileys' `downloadEncryptedContent`); no secret.
      headers: { Origin: DEFAULT_ORIGIN },
      credentialOrigins: [new URL(url).origin],
      signal,
    });
    const plain = encrypted.stream.pipeThrough(
      decryptMedium(
        { iv, cipherKey, macKey },
        {
          fileEncSha256: bytesOf(source.fileEncSha256),
          fileSha256: bytesOf(source.fileSha256),
          fileLength: source.fileLength,
        },
        what,
      ),
    );
    return {
      stream: capStream(plain, options.maxBytes, what),
      ...(attachment.mime ? { mime: attachment.mime } : {}),
      ...(source.fileLength !== undefined ? { size: source.fileLength } : {}),
    };
  };
}

/** The attachment's download facts, as `attachmentsOf` wrote them; a typed error for anything else. */
function sourceOf(attachment: Attachment): WhatsAppMediaSource {
  const source = attachment.source as Partial<Record<keyof WhatsAppMediaSource, unknown>> | null | undefined;
  const type = source?.type;
  const directPath = source?.directPath;
  const mediaKey = source?.mediaKey;
  if (
    typeof type !== "string" ||
    !MEDIA_TYPES.includes(type as MediaType) ||
    typeof directPath !== "string" ||
    !DIRECT_PATH.test(directPath) ||
    typeof mediaKey !== "string" ||
    mediaKey === ""
  ) {
    throw new ChorusError("E_INVALID_INPUT", `This ${attachment.kind} attachment has no WhatsApp medium to download`, {
      details: { kind: attachment.kind },
    });
  }
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  const fileLength = source?.fileLength;
  return {
    type: type as MediaType,
    directPath,
    mediaKey,
    ...(text(source?.fileEncSha256) ? { fileEncSha256: text(source?.fileEncSha256) as string } : {}),
    ...(text(source?.fileSha256) ? { fileSha256: text(source?.fileSha256) as string } : {}),
    ...(typeof fileLength === "number" && Number.isSafeInteger(fileLength) ? { fileLength } : {}),
  };
}

function bytesOf(base64: string | undefined): Uint8Array | undefined {
  return base64 === undefined ? undefined : Buffer.from(base64, "base64");
}
