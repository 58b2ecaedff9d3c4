import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createFakeServer, type FakeResponse, type FakeServer, mediumResponse, text } from "@chorus/testkit";

/** A file the CDN serves. */
export interface CdnFile {
  readonly bytes: Uint8Array;
  readonly contentType?: string | undefined;
}

/** Discord signs attachment URLs for about a day. */
const DAY_MS = 86_400_000;
/** What the CDN answers for an expired, unsigned or unknown attachment URL. */
const GONE = "This content is no longer available.";

/** `attachments/<channel id>/<attachment id>/<filename>`: where an attachment lives on the CDN. */
export function attachmentPath(channelId: string, attachmentId: string, filename: string): string {
  return `/attachments/${channelId}/${attachmentId}/${encodeURIComponent(filename)}`;
}

/**
 * The fake `cdn.discordapp.com`, with `media.discordapp.net` under `/media` of the same server.
 * Attachment URLs are signed as Discord signs them (developers/reference.mdx "Signed Attachment
 * CDN URLs": `ex` = expiry and `is` = issue time as hex Unix seconds, `hm` = a signature); once
 * `ex` has passed, or with a wrong signature, the CDN answers 404 "This content is no longer
 * available." Stickers (`stickers/<id>.<ext>`) are not signed. Downloads are written in chunks as
 * the socket takes them, so `bytesServed` shows where a client stopped reading.
 */
export class FakeCdn {
  readonly server: FakeServer = createFakeServer();
  /** Bytes of files written to clients so far. */
  bytesServed = 0;
  readonly #key = randomBytes(32);
  #skewMs = 0;

  constructor(
    private readonly lookup: (path: string) => CdnFile | undefined,
    private readonly lifetimeMs = DAY_MS,
  ) {
    const attachment = /^(?<proxy>\/media)?(?<path>\/attachments\/\d+\/\d+\/[^/]+)$/;
    this.server.route("GET", attachment, (ctx) => {
      const path = ctx.params.path as string;
      return this.#valid(path, ctx.query) ? this.#serve(this.lookup(path)) : text(404, GONE);
    });
    this.server.route("GET", /^(?:\/media)?(?<path>\/stickers\/\d+\.(?:png|json|gif))$/, (ctx) =>
      this.#serve(this.lookup(ctx.params.path as string)),
    );
  }

  /** `http://127.0.0.1:PORT`: the CDN (`cdnUrl`). */
  get url(): string {
    return this.server.url;
  }

  /** The media proxy (`mediaProxyUrl`). */
  get mediaUrl(): string {
    return `${this.server.url}/media`;
  }

  start(): Promise<string> {
    return this.server.start();
  }

  close(): Promise<void> {
    return this.server.close();
  }

  /** The CDN's clock: URLs are signed and checked against it. */
  now(): number {
    return Date.now() + this.#skewMs;
  }

  /** Moves the CDN's clock on by `ms`: URLs whose `ex` it passes are expired. */
  advance(ms: number): void {
    this.#skewMs += ms;
  }

  /** The signed URL of `path` on the CDN, or on the media proxy (`proxy_url`), valid from now. */
  signed(path: string, host: "cdn" | "media" = "cdn"): string {
    const is = Math.floor(this.now() / 1000).toString(16);
    const ex = Math.floor((this.now() + this.lifetimeMs) / 1000).toString(16);
    const base = host === "cdn" ? this.url : this.mediaUrl;
    return `${base}${path}?ex=${ex}&is=${is}&hm=${this.#signature(path, ex, is)}&`;
  }

  /** `url` signed again from now (what `POST /attachments/refresh-urls` answers), or undefined when it is not one of this CDN's. */
  refresh(url: string): string | undefined {
    if (!URL.canParse(url)) return undefined;
    const parsed = new URL(url);
    const proxied = parsed.pathname.startsWith("/media/");
    const path = proxied ? parsed.pathname.slice("/media".length) : parsed.pathname;
    if (parsed.origin !== new URL(this.url).origin || !path.startsWith("/attachments/") || !this.lookup(path))
      return undefined;
    return this.signed(path, proxied ? "media" : "cdn");
  }

  #signature(path: string, ex: string, is: string): string {
    return createHmac("sha256", this.#key).update(`${path}\n${ex}\n${is}`).digest("hex");
  }

  #valid(path: string, query: URLSearchParams): boolean {
    const [ex, is, hm] = [query.get("ex"), query.get("is"), query.get("hm")];
    if (!ex || !is || !hm || !/^[0-9a-f]{64}$/.test(hm)) return false;
    const expected = Buffer.from(this.#signature(path, ex, is), "hex");
    if (!timingSafeEqual(expected, Buffer.from(hm, "hex"))) return false;
    return Number.parseInt(ex, 16) * 1000 > this.now();
  }

  #serve(file: CdnFile | undefined): FakeResponse {
    if (!file) return text(404, GONE);
    return mediumResponse(file.bytes, {
      headers: { "content-type": file.contentType ?? "application/octet-stream" },
      served: (bytes) => {
        this.bytesServed += bytes;
      },
    });
  }
}
