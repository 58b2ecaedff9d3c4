import { randomBytes } from "node:crypto";
import { hmacSha256, safeEqual } from "@chorus/channel-kit";
import type { SqlDb } from "../state/index.js";

/** How long a signed media link works by default. */
export const LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The `meta` key of the link-signing key. */
const KEY_NAME = "media_link_key";

/** Creates the signing key once (the first gateway of a cluster to start wins) and reads it. */
export async function linkKey(db: SqlDb): Promise<Buffer> {
  await db.run("INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", [
    KEY_NAME,
    randomBytes(32).toString("base64url"),
  ]);
  const row = await db.one<{ value: string }>("SELECT value FROM meta WHERE key = $1", [KEY_NAME]);
  if (!row) throw new Error("the media link key could not be kept in the state database");
  return Buffer.from(row.value, "base64url");
}

/**
 * Signed, expiring links to media (`<gateway.publicUrl>/v1/media/<id>?exp=<epoch s>&sig=<…>`): what
 * a recipient opens where a medium goes out as a link (DESIGN §2.6 rule 3) and what `POST /v1/media`
 * answers. The key lives in the state database, so every gateway of a cluster signs and checks
 * alike; signatures are compared in constant time.
 */
export class MediaLinks {
  constructor(
    private readonly key: Uint8Array,
    /** `gateway.publicUrl` as configured (no trailing slash); without it there are no links. */
    private readonly publicUrl: string | undefined,
    private readonly lifetimeMs = LINK_LIFETIME_MS,
  ) {}

  /** Whether links can be made (a public URL is configured). */
  get enabled(): boolean {
    return this.publicUrl !== undefined;
  }

  /** A link to `mediaId` valid for the lifetime from `now`; undefined without `gateway.publicUrl`. */
  link(mediaId: string, now = Date.now()): string | undefined {
    if (this.publicUrl === undefined) return undefined;
    const exp = Math.floor((now + this.lifetimeMs) / 1000);
    return `${this.publicUrl}/v1/media/${encodeURIComponent(mediaId)}?exp=${exp}&sig=${this.#sign(mediaId, exp)}`;
  }

  /** Whether `exp` and `sig` are a valid, unexpired signature of `mediaId`. */
  verify(mediaId: string, exp: string | undefined, sig: string | undefined, now = Date.now()): boolean {
    if (exp === undefined || sig === undefined || !/^\d{1,12}$/.test(exp)) return false;
    const expected = this.#sign(mediaId, Number(exp));
    // Compared before the expiry is looked at: the time taken says nothing about which check failed.
    const signed = safeEqual(sig, expected);
    return signed && Number(exp) * 1000 > now;
  }

  #sign(mediaId: string, exp: number): string {
    return hmacSha256(this.key, `media\n${mediaId}\n${exp}`).toString("base64url");
  }
}
