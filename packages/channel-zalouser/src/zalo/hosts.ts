/**
 * Zalo's hosts: the web protocol's (`zalo.me` and `*.zalo.me`: the QR login, the login pair, the
 * service map, the listener) and the CDNs its media live on (`mediaHosts`: photos, files, voice
 * messages, stickers). `apiBase` is one base URL that stands in for all of them, in the URLs zca-js
 * fetches, the listener URLs Zalo hands out at login, and the media URLs in messages.
 */

/** The web protocol's domain. */
const PROTOCOL_DOMAIN = "zalo.me";

/**
 * The domains Zalo serves media from, by default: `zdn.vn` (photos, `photo-stal-*.zdn.vn`),
 * `zadn.vn` (stickers, `zalo-api.zadn.vn`) and `dlfl.vn` (files and voice messages,
 * `file-stal-*.dlfl.vn`), as the URLs in received messages name them (src/fixtures/SOURCES.md).
 */
export const DEFAULT_MEDIA_HOSTS: readonly string[] = ["zdn.vn", "zadn.vn", "dlfl.vn"];

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The origin of a URL on one of `domains` or their subdomains (scheme, host, port), as a pattern. */
function originOn(domains: readonly string[]): RegExp {
  const names = domains.map(literal).join("|");
  return new RegExp(`^(https?|wss?):\\/\\/([a-z0-9-]+\\.)*(?:${names})(:\\d+)?(?=[/?#]|$)`, "i");
}

/** Whether `url` is on a Zalo host: the protocol's or a media host. */
export const isZaloUrl = (url: string, mediaHosts: readonly string[] = DEFAULT_MEDIA_HOSTS): boolean =>
  originOn([PROTOCOL_DOMAIN, ...mediaHosts]).test(url);

/** Whether `url` is an https URL on Zalo's own hosts, where received media may be downloaded from. */
export const isZaloMediaUrl = (url: string, mediaHosts: readonly string[] = DEFAULT_MEDIA_HOSTS): boolean =>
  /^https:\/\//i.test(url) && isZaloUrl(url, mediaHosts);

/**
 * `url` with its Zalo origin replaced by `apiBase` (a WebSocket URL gets the `ws`/`wss` form of
 * it); any other URL unchanged. The path and query stay as zca-js or Zalo wrote them.
 */
export function redirectZaloUrl(
  url: string,
  apiBase: string,
  mediaHosts: readonly string[] = DEFAULT_MEDIA_HOSTS,
): string {
  const match = originOn([PROTOCOL_DOMAIN, ...mediaHosts]).exec(url);
  if (!match) return url;
  const base = apiBase.replace(/\/+$/, "");
  const socket = /^wss?$/i.test(match[1] as string);
  const target = socket ? base.replace(/^http/i, "ws") : base;
  return target + url.slice(match[0].length);
}

/** Every string in a JSON value with its Zalo URLs redirected to `apiBase`. */
export function redirectZaloUrls(value: unknown, apiBase: string): unknown {
  if (typeof value === "string") return isZaloUrl(value) ? redirectZaloUrl(value, apiBase) : value;
  if (Array.isArray(value)) return value.map((item) => redirectZaloUrls(item, apiBase));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redirectZaloUrls(item, apiBase)]));
  }
  return value;
}

/** A fetch that sends requests for Zalo's hosts to `apiBase` (unset: unchanged), for downloads outside zca-js. */
export function zaloFetch(apiBase: string | undefined, mediaHosts: readonly string[]): typeof fetch {
  return (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    return fetch(apiBase ? redirectZaloUrl(url, apiBase, mediaHosts) : url, init);
  };
}
