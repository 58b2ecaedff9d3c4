import { downloadMedium } from "@chorus/channel-kit";
import { type Attachment, type ChannelInstance, ChorusError, type DownloadedMedium } from "@chorus/core";
import type { DiscordRest } from "./client.js";
import type { DiscordConfig } from "./config.js";

const MiB = 1024 * 1024;

/**
 * Bytes of one file a bot uploads. Discord's default upload limit is 10 MiB "for all users" (bots
 * included; more only on boosted servers or for Nitro users) and "applies to each file in a
 * request" (discord/discord-api-docs c98d64bc, developers/reference.mdx "Uploading Files"); it was
 * lowered from 25 MiB on 2025-01-16 (change-log "Default File Upload Limit Change", 2024-12-16) and
 * is checked per file since 2025-04-03 (change-log "Per-Attachment File Upload Behavior for Apps").
 * Over it Discord answers 413 `{"message": "Request entity too large", "code": 40005}`
 * (discord-api-docs issue #8572).
 */
export const DISCORD_MAX_UPLOAD_BYTES = 10 * MiB;

/**
 * Bytes of one create-message request, all its files together: "The maximum request size when
 * sending a message is 25 MiB" (resources/message.mdx, Create Message, Limitations).
 */
export const DISCORD_MAX_REQUEST_BYTES = 25 * MiB;

/**
 * What the files of one message may take of that request: the form around them (boundaries, part
 * headers, `payload_json` with up to 2000 characters of content) takes a few KiB; 64 KiB are kept.
 */
export const DISCORD_MAX_MESSAGE_MEDIA_BYTES = DISCORD_MAX_REQUEST_BYTES - 64 * 1024;

/** Files in one message: "Maximum number of attachments in a message reached (10)" (JSON error 30015). */
export const DISCORD_MAX_FILES = 10;

/**
 * Bytes of the largest attachment the channel downloads. The CDN serves whatever its uploader could
 * upload: 10 MiB by default, more on boosted servers and from Nitro users (hundreds of MB). 25 MiB
 * (the gateway's default `media.maxBytes`, and Discord's request limit) keeps a turn's downloads
 * small; a larger attachment is `E_TOO_LARGE` from its Content-Length, before any byte is read.
 */
export const DISCORD_MAX_RECEIVE_BYTES = 25 * MiB;

/** What `download` needs of an attachment (`Attachment.source`): its signed CDN URL, or a sticker's. */
export type DiscordMediaSource = {
  readonly url: string;
  readonly proxyUrl?: string;
  /** The attachment's or the sticker's id. */
  readonly id: string;
};

/** `download` for Discord: the attachment from the CDN, without the bot token; an expired URL refreshed once. */
export function createDownload(
  rest: DiscordRest,
  config: Pick<DiscordConfig, "cdnUrl" | "mediaProxyUrl">,
): NonNullable<ChannelInstance["download"]> {
  const hosts = new Set([new URL(config.cdnUrl).origin, new URL(config.mediaProxyUrl).origin]);
  return async (attachment, { maxBytes, signal }) => {
    const source = sourceOf(attachment);
    const what = `Discord ${attachment.kind === "sticker" ? "sticker" : "attachment"} ${source.id}`;
    if (!hosts.has(new URL(source.url).origin)) {
      throw new ChorusError("E_INVALID_INPUT", `${what} is not on Discord's CDN (cdnUrl, mediaProxyUrl).`);
    }
    // Signed CDN URLs need no credentials: nothing is sent along, whatever the host.
    const fetchFrom = (url: string): Promise<DownloadedMedium> =>
      downloadMedium(url, { maxBytes, what, credentialOrigins: [], ...(signal ? { signal } : {}) });
    try {
      return await fetchFrom(source.url);
    } catch (error) {
      if (!isGone(error)) throw error;
      if (!isSigned(source.url)) throw gone(what, error);
    }
    // The URL expired (`ex` passed): Discord signs it again, once.
    const fresh = await refreshUrl(rest, source.url, what, signal);
    try {
      return await fetchFrom(fresh);
    } catch (error) {
      throw isGone(error) ? gone(what, error) : error;
    }
  };
}

/** The CDN no longer has it: `E_MESSAGE_NOT_FOUND` (a 403 there is no refused credential: none is sent). */
function gone(what: string, error: ChorusError): ChorusError {
  return new ChorusError("E_MESSAGE_NOT_FOUND", `${what} is no longer available on Discord's CDN.`, {
    details: { status: error.details?.status },
  });
}

/**
 * `POST /attachments/refresh-urls` `{ attachment_urls: [url] }` → `{ refreshed_urls: [{ original,
 * refreshed }] }`: fresh `ex`/`is`/`hm` for an attachment URL. Discord's developer docs do not list
 * it (discord-api-docs c98d64bc); bots use it with their token (spacebarchat/server#1151,
 * esmBot/esmBot#461).
 */
async function refreshUrl(rest: DiscordRest, url: string, what: string, signal?: AbortSignal): Promise<string> {
  const answer = await rest.call<{ refreshed_urls?: { original?: string; refreshed?: string }[] }>(
    "post",
    "/attachments/refresh-urls",
    `refresh the URL of ${what}`,
    { body: { attachment_urls: [url] }, ...(signal ? { signal } : {}) },
  );
  const refreshed = answer.refreshed_urls?.find((entry) => entry.original === url)?.refreshed;
  if (!refreshed)
    throw new ChorusError("E_MESSAGE_NOT_FOUND", `${what} is no longer available: Discord did not refresh its URL.`);
  return refreshed;
}

function sourceOf(attachment: Attachment): DiscordMediaSource {
  const source = attachment.source as Partial<DiscordMediaSource> | null | undefined;
  if (typeof source?.url !== "string" || typeof source.id !== "string" || !URL.canParse(source.url)) {
    throw new ChorusError("E_INVALID_INPUT", "This Discord attachment has no CDN URL to download it from.");
  }
  return source as DiscordMediaSource;
}

/** The CDN's answer to an expired or unknown signed URL: 404 (or 403), "This content is no longer available." */
function isGone(error: unknown): error is ChorusError {
  const status = error instanceof ChorusError ? error.details?.status : undefined;
  return status === 404 || status === 403;
}

/** An attachment URL carries `ex`, `is` and `hm` (developers/reference.mdx "Signed Attachment CDN URLs"); sticker URLs do not. */
function isSigned(url: string): boolean {
  return new URL(url).searchParams.has("ex");
}
