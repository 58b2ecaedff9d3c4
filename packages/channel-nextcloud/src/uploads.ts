import {
  codeForStatus,
  type HttpAnswer,
  HttpClient,
  PlatformHttpError,
  type Redactor,
  tooLarge,
} from "@chorus/channel-kit";
import { type ChorusError, formatBytes, type OutboundMedium } from "@chorus/core";
import { envelopeOf, readOcs } from "./client.js";
import type { NextcloudConfig, NextcloudFilesConfig } from "./config.js";
import type { NextcloudDav } from "./dav.js";

/** Nextcloud's share API (OCS Share API, "Create a new share"). */
export const SHARE_API_PATH = "/ocs/v2.php/apps/files_sharing/api/v1/shares";
/** `shareType` of a share with a Talk conversation (`IShare::TYPE_ROOM`; spreed `docs/chat.md`, "Share a file to the chat"). */
export const SHARE_TYPE_ROOM = 10;

/** What goes with one shared file into the conversation. */
export interface ShareOptions {
  /** Identifies the chat message the share makes (`referenceId`, as a bot message's). */
  referenceId: string;
  /** Shown with the file (`talkMetaData.caption`). */
  caption?: string | undefined;
  /** The message the share answers (`talkMetaData.replyTo`). */
  replyTo?: number | undefined;
}

/** Uploading media and sharing them into a conversation as the bot's files user. */
export interface NextcloudUploads {
  /** Refuses, before anything is sent, a medium over the server's upload limit. */
  check(media: readonly OutboundMedium[]): void;
  /** Uploads `medium` (streamed) and shares it into the conversation `token`. */
  share(token: string, medium: OutboundMedium, options: ShareOptions): Promise<void>;
}

/**
 * Uploads and shares (`files` configured): the file goes into the files user's folder over WebDAV,
 * then `POST …/shares` with `shareType: 10` and the conversation's token, which Talk shows as that
 * user's chat message with the file (spreed `Chat/SystemMessage/Listener`, `file_shared`; the
 * request's `referenceId` becomes the message's).
 */
export function createUploads(
  dav: NextcloudDav,
  config: NextcloudConfig,
  files: NextcloudFilesConfig,
  options: { signal: AbortSignal; redactor: Redactor },
): NextcloudUploads {
  const shares = new HttpClient({
    label: "Nextcloud",
    baseUrl: config.baseUrl,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    maxRetryAfterMs: config.maxRetryAfterMs,
    signal: options.signal,
    redactor: options.redactor,
    headers: { authorization: dav.authorization, "ocs-apirequest": "true" },
    refusal: (answer) => shareRefusal(answer, files.user),
    read: readOcs,
  });
  return {
    check(media) {
      for (const medium of media) {
        if (medium.size > files.maxUploadBytes) {
          throw tooLarge(`"${medium.filename}"`, files.maxUploadBytes, medium.size, {
            kind: medium.kind,
            hint: `This Nextcloud takes uploads of up to ${formatBytes(files.maxUploadBytes)} (channels.nextcloud.files.maxUploadBytes).`,
          });
        }
      }
    },
    async share(token, medium, share) {
      const path = await dav.upload(medium);
      const meta = {
        ...(medium.kind === "voice" ? { messageType: "voice-message" } : {}),
        ...(share.caption?.trim() ? { caption: share.caption } : {}),
        ...(share.replyTo !== undefined ? { replyTo: share.replyTo } : {}),
      };
      try {
        await shares.request({
          method: "POST",
          path: SHARE_API_PATH,
          json: {
            path: `/${path}`,
            shareType: SHARE_TYPE_ROOM,
            shareWith: token,
            referenceId: share.referenceId,
            ...(Object.keys(meta).length > 0 ? { talkMetaData: JSON.stringify(meta) } : {}),
          },
          operation: `share "${medium.filename}" into ${token}`,
          // The path is new (never overwritten): a repeat can only find the share it made itself.
          idempotent: true,
        });
      } catch (error) {
        if (error instanceof PlatformHttpError && error.platformCode === ALREADY_SHARED) return;
        throw error;
      }
    },
  };
}

/** The refusal of a repeated share of the same path (spreed `RoomShareProvider::create`, 403). */
const ALREADY_SHARED = "already_shared";

/** The share API's refusals (OCS v2: the HTTP status is the OCS status), in Nextcloud's terms. */
function shareRefusal(answer: HttpAnswer, user: string): ChorusError {
  const { status, operation } = answer;
  const said = envelopeOf(answer.json)?.ocs.meta.message ?? "";
  const message = `Nextcloud refused to ${operation} (HTTP ${status}${said ? `: ${said}` : ""})`;
  if (status === 403 && /already shared/iu.test(said)) {
    return new PlatformHttpError("E_PLATFORM", message, status, ALREADY_SHARED, { retryable: false });
  }
  if (status === 404 && /conversation/iu.test(said)) {
    // "Conversation not found": also what Talk says to a sharer who is not a participant.
    return new PlatformHttpError("E_AUTH", message, status, undefined, {
      retryable: false,
      hint: `Add the files user "${user}" to the conversation; Talk lets only participants share into it.`,
    });
  }
  if (status === 401) {
    return new PlatformHttpError("E_AUTH", message, status, undefined, {
      hint: "Check channels.nextcloud.files.user and files.appPassword (an app password of that user).",
    });
  }
  return new PlatformHttpError(codeForStatus(status), message, status, undefined);
}
