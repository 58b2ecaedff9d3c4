import type { SessionEntry } from "./entry.js";

/**
 * One session as the `sessions.json` mirror holds it: `"key":{…}` (the worker joins these with
 * commas). `JSON.stringify` writes no raw newline, so a full copy is these texts one per line.
 */
export function mirrorText(entry: SessionEntry): string {
  return `${JSON.stringify(entry.key)}:${JSON.stringify(entry)}`;
}

/**
 * A full copy of one agent's sessions for the mirror's worker: their mirror texts, one per line,
 * as UTF-8 in a buffer of its own, so it is handed to the worker without a copy. Built as the
 * store opens, from the JSON texts the database returned (serialising 100,000 entries again would
 * cost the main thread ~0.3 s; `add` falls back to that only for an entry the check changed).
 */
export class MirrorCopy {
  readonly #lines: string[] = [];

  /** A session read from the database (`raw` is `text` parsed, `entry` what the check made of it); returns `entry`. */
  addStored(entry: SessionEntry, raw: Record<string, unknown>, text: string): SessionEntry {
    this.#lines.push(
      saysTheSame(entry, raw) && !text.includes("\n") ? `${JSON.stringify(entry.key)}:${text}` : mirrorText(entry),
    );
    return entry;
  }

  add(entry: SessionEntry): void {
    this.#lines.push(mirrorText(entry));
  }

  /** The copy (an `ArrayBuffer` of its own: transferable). */
  bytes(): Uint8Array {
    return new TextEncoder().encode(this.#lines.join("\n"));
  }

  /** A full copy of `entries`. */
  static of(entries: Iterable<SessionEntry>): Uint8Array {
    const copy = new MirrorCopy();
    for (const entry of entries) copy.add(entry);
    return copy.bytes();
  }
}

/** The check keeps every field as read except settings of the wrong kind, which it drops. */
function saysTheSame(entry: SessionEntry, raw: Record<string, unknown>): boolean {
  const settings = raw.settings as Record<string, unknown>;
  const checked = entry.settings as Record<string, unknown>;
  for (const key of Object.keys(settings)) if (checked[key] !== settings[key]) return false;
  return true;
}
