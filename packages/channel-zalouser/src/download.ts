import { anySignal, downloadMedium, tooLarge } from "@chorus/channel-kit";
import { type Attachment, type ChannelInstance, ChorusError, type DownloadedMedium } from "@chorus/core";
import type { ZaloMediaSource } from "./attachments.js";
import type { ZalouserConfig } from "./config.js";
import type { ZaloCaller } from "./zalo/caller.js";
import { isZaloMediaUrl, zaloFetch } from "./zalo/hosts.js";

/**
 * `download` (DESIGN §3): a received medium from the URL its message carries, on Zalo's media
 * hosts (`mediaHosts`, `*.zalo.me`) and over https only — a URL elsewhere is refused before any
 * request, so a crafted message cannot make the gateway fetch an address of its choosing. The
 * session's cookies never go along (they belong to `zalo.me`: a browser running Zalo Web does not send
 * them to these other sites either); a sticker's image is found first with zca-js's `getStickersDetail` (its WebP, else
 * its PNG). Capped at `maxBytes` by the kit's `downloadMedium`; `apiBase` redirects the hosts.
 */
export function createDownload(
  config: Pick<ZalouserConfig, "apiBase" | "mediaHosts">,
  call: ZaloCaller,
  lifetime: AbortSignal,
): NonNullable<ChannelInstance["download"]> {
  const fetchZalo = zaloFetch(config.apiBase, config.mediaHosts);
  return async (attachment, { maxBytes, signal }) => {
    const source = sourceOf(attachment);
    const what = "sticker" in source ? `Zalo sticker ${source.sticker.id}` : `Zalo ${attachment.kind}`;
    if (attachment.size !== undefined && attachment.size > maxBytes) throw tooLarge(what, maxBytes, attachment.size);
    const url = "url" in source ? source.url : await stickerUrl(call, source.sticker.id, what);
    if (!isZaloMediaUrl(url, config.mediaHosts)) {
      throw new ChorusError("E_INVALID_INPUT", `${what} is not on Zalo's media hosts; it was not downloaded.`, {
        hint: "Should Zalo serve media from another domain, add it to channels.zalouser.mediaHosts.",
      });
    }
    const medium = await downloadMedium(url, {
      maxBytes,
      what,
      fetch: fetchZalo,
      signal: signal ? anySignal([lifetime, signal]) : lifetime,
    });
    return withMime(medium, attachment.mime);
  };
}

/** The image Zalo shows for a sticker: `getStickersDetail` (`sticker_detail`, by its id). */
async function stickerUrl(call: ZaloCaller, id: number, what: string): Promise<string> {
  const { result } = await call(`read sticker ${id}`, (api) => api.getStickersDetail(id), true);
  const detail = result[0];
  const url = detail?.stickerWebpUrl || detail?.stickerUrl;
  if (!url) throw new ChorusError("E_MESSAGE_NOT_FOUND", `Zalo gave no image for ${what}.`);
  return url;
}

/** A CDN may answer `application/octet-stream`; what the message said is more telling then. */
function withMime(medium: DownloadedMedium, said: string | undefined): DownloadedMedium {
  const mime = medium.mime && medium.mime !== "application/octet-stream" ? medium.mime : said;
  return {
    stream: medium.stream,
    ...(mime ? { mime } : {}),
    ...(medium.size !== undefined ? { size: medium.size } : {}),
  };
}

function sourceOf(attachment: Attachment): ZaloMediaSource {
  const source = attachment.source as Record<string, unknown> | null | undefined;
  const sticker = source?.sticker as { id?: unknown; catId?: unknown; type?: unknown } | undefined;
  if (sticker && Number.isSafeInteger(sticker.id)) {
    return {
      sticker: { id: sticker.id as number, catId: Number(sticker.catId ?? 0), type: Number(sticker.type ?? 0) },
    };
  }
  if (typeof source?.url === "string" && source.url !== "") return { url: source.url };
  throw new ChorusError("E_INVALID_INPUT", `This ${attachment.kind} attachment has no Zalo medium to download.`, {
    details: { kind: attachment.kind },
  });
}
