/**
 * `apiBase`: one base URL that stands in for every Zalo host (`zalo.me` and `*.zalo.me`), in the
 * URLs zca-js fetches and in the service map and listener URLs Zalo hands out at login.
 */

const ZALO_ORIGIN = /^(https?|wss?):\/\/([a-z0-9-]+\.)*zalo\.me(:\d+)?(?=[/?#]|$)/i;

/** Whether `url` is on a Zalo host. */
export const isZaloUrl = (url: string): boolean => ZALO_ORIGIN.test(url);

/**
 * `url` with its Zalo origin replaced by `apiBase` (a WebSocket URL gets the `ws`/`wss` form of
 * it); any other URL unchanged. The path and query stay as zca-js wrote them.
 */
export function redirectZaloUrl(url: string, apiBase: string): string {
  const match = ZALO_ORIGIN.exec(url);
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
