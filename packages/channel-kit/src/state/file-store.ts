import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { ChannelStore, JsonValue, StoreEntry, StoreSetOptions } from "@chorus/core";
import { KeyedQueue } from "../collections/keyed-queue.js";
import { ioError, readJsonFile, writeFileAtomic } from "./atomic-file.js";
import { CoalescedWriter } from "./coalesced-writer.js";
import { CorruptFileError, setCorruptFileAside } from "./corrupt-file.js";
import { alive, checkStoreKey, expiryOf, type StoredEntry, storeValueText } from "./store-values.js";
import { defaultStateWarning, type StateWarningHandler } from "./warnings.js";

export interface FileStoreOptions {
  /** The directory of one channel account's store. */
  dir: string;
  /** Receives what the store recovered from (a corrupt file set aside, a failed write). */
  warn?: StateWarningHandler;
  now?: () => number;
}

/** One file of the store: the keys that share the part before their first `/`. */
interface Space {
  file: string;
  entries: Map<string, StoredEntry>;
  writer: CoalescedWriter;
  /** The file as last read or written, to notice another process writing it. */
  stamp: string | undefined;
}

/**
 * A `ChannelStore` on disk: one JSON file per key group (`botReactions/…` → `botReactions.json`),
 * written atomically (temp file, fsync, rename) and coalesced, so many writes in one tick cost
 * one write. A file that is not valid JSON is set aside as `<file>.corrupt-<time>` with a warning
 * and its group starts empty; entries that are not valid are dropped with a warning naming them.
 * A file another process wrote (`chorus channels login` next to a running gateway) is read again.
 */
export class FileStore implements ChannelStore {
  readonly #spaces = new Map<string, Promise<Space>>();
  readonly #queue = new KeyedQueue();
  readonly #warn: StateWarningHandler;
  readonly #now: () => number;

  constructor(private readonly options: FileStoreOptions) {
    this.#warn = options.warn ?? defaultStateWarning;
    this.#now = options.now ?? Date.now;
  }

  get dir(): string {
    return this.options.dir;
  }

  async get<V extends JsonValue = JsonValue>(key: string): Promise<V | undefined> {
    checkStoreKey(key);
    return this.#inSpace(key, (space) => {
      const entry = space.entries.get(key);
      return alive(entry, this.#now()) ? (JSON.parse(entry.json) as V) : undefined;
    });
  }

  async set(key: string, value: JsonValue, options: StoreSetOptions = {}): Promise<void> {
    checkStoreKey(key);
    const json = storeValueText(key, value);
    const expiresAt = expiryOf(options.ttlMs, this.#now());
    const space = await this.#inSpace(key, (s) => {
      s.entries.set(key, expiresAt === undefined ? { json } : { json, expiresAt });
      s.writer.changed();
      return s;
    });
    await space.writer.flush();
  }

  async delete(key: string): Promise<boolean> {
    checkStoreKey(key);
    const { space, existed } = await this.#inSpace(key, (s) => {
      const entry = s.entries.get(key);
      if (entry === undefined) return { space: s, existed: false };
      s.entries.delete(key);
      s.writer.changed();
      return { space: s, existed: alive(entry, this.#now()) };
    });
    await space.writer.flush();
    return existed;
  }

  async list<V extends JsonValue = JsonValue>(prefix: string): Promise<StoreEntry<V>[]> {
    const now = this.#now();
    const names = prefix.includes("/") ? [spaceName(prefix)] : await this.#spaceNamesStartingWith(prefix);
    const found: StoreEntry<V>[] = [];
    for (const name of names) {
      await this.#inSpace(`${name}/`, (space) => {
        for (const [key, entry] of space.entries) {
          if (key.startsWith(prefix) && alive(entry, now)) found.push({ key, value: JSON.parse(entry.json) as V });
        }
      });
    }
    return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async update<V extends JsonValue = JsonValue>(
    key: string,
    change: (current: V | undefined) => V | undefined,
    options: StoreSetOptions = {},
  ): Promise<V | undefined> {
    checkStoreKey(key);
    const { space, result } = await this.#inSpace(key, (s) => {
      const entry = s.entries.get(key);
      const next = change(alive(entry, this.#now()) ? (JSON.parse(entry.json) as V) : undefined);
      if (next === undefined) {
        if (entry !== undefined) s.entries.delete(key);
      } else {
        const json = storeValueText(key, next);
        const expiresAt = expiryOf(options.ttlMs, this.#now());
        s.entries.set(key, expiresAt === undefined ? { json } : { json, expiresAt });
      }
      s.writer.changed();
      return { space: s, result: next === undefined ? undefined : (JSON.parse(JSON.stringify(next)) as V) };
    });
    await space.writer.flush();
    return result;
  }

  /** Resolves when every write made so far is on disk. */
  async flush(): Promise<void> {
    const spaces = await Promise.all(this.#spaces.values());
    await Promise.all(spaces.map((space) => space.writer.flush()));
  }

  /** Runs `use` on the (fresh) space of `key`, one operation at a time per space. */
  #inSpace<T>(key: string, use: (space: Space) => T): Promise<T> {
    const name = spaceName(key);
    return this.#queue.run(name, async () => use(await this.#space(name)));
  }

  async #space(name: string): Promise<Space> {
    let loading = this.#spaces.get(name);
    if (!loading) {
      loading = this.#open(name);
      this.#spaces.set(name, loading);
      loading.catch(() => this.#spaces.delete(name));
      return loading;
    }
    const space = await loading;
    // Another process may have written the file (a login next to a running gateway): read it again.
    if (!space.writer.dirty && (await stampOf(space.file)) !== space.stamp) await this.#load(space);
    return space;
  }

  async #open(name: string): Promise<Space> {
    const file = join(this.options.dir, `${fileName(name)}.json`);
    const space: Space = {
      file,
      entries: new Map(),
      stamp: undefined,
      writer: new CoalescedWriter(
        async () => {
          await writeFileAtomic(file, serialize(space.entries, this.#now()));
          space.stamp = await stampOf(file);
        },
        (error) => this.#warn(`could not save the channel store file ${file}`, error),
      ),
    };
    await this.#load(space);
    return space;
  }

  async #load(space: Space): Promise<void> {
    const { file } = space;
    space.stamp = await stampOf(file);
    let raw: unknown;
    try {
      raw = await readJsonFile<unknown>(file);
    } catch (error) {
      if (!(error instanceof CorruptFileError)) throw ioError("read", file, error);
      const aside = await setCorruptFileAside(file);
      this.#warn(`the channel store file ${file} was not valid JSON; moved it to ${aside} and started it empty`, error);
      space.entries = new Map();
      space.stamp = undefined;
      return;
    }
    space.entries = await this.#entriesOf(file, raw);
  }

  async #entriesOf(file: string, raw: unknown): Promise<Map<string, StoredEntry>> {
    const entries = new Map<string, StoredEntry>();
    if (raw === undefined) return entries;
    const record = raw as { entries?: unknown };
    if (typeof raw !== "object" || raw === null || typeof record.entries !== "object" || record.entries === null) {
      const aside = await setCorruptFileAside(file);
      this.#warn(
        `the channel store file ${file} does not hold store entries; moved it to ${aside} and started it empty`,
      );
      return entries;
    }
    const dropped: string[] = [];
    for (const [key, stored] of Object.entries(record.entries as Record<string, unknown>)) {
      const item = stored as { value?: unknown; expiresAt?: unknown };
      const validExpiry = item?.expiresAt === undefined || typeof item.expiresAt === "number";
      if (typeof stored !== "object" || stored === null || !("value" in item) || !validExpiry) {
        dropped.push(key);
        continue;
      }
      const json = JSON.stringify(item.value);
      entries.set(key, typeof item.expiresAt === "number" ? { json, expiresAt: item.expiresAt } : { json });
    }
    if (dropped.length > 0) {
      const copy = await setCorruptFileAside(file, { keepOriginal: true });
      this.#warn(
        `the channel store file ${file} had unreadable entries (${dropped.join(", ")}); dropped them, the original is kept at ${copy}`,
      );
    }
    return entries;
  }

  async #spaceNamesStartingWith(prefix: string): Promise<string[]> {
    let files: string[] = [];
    try {
      files = await readdir(this.options.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw ioError("list", this.options.dir, error);
    }
    const names = new Set(this.#spaces.keys());
    for (const file of files) {
      if (file.endsWith(".json") && !file.startsWith(".")) names.add(decodeURIComponent(file.slice(0, -5)));
    }
    return [...names].filter((name) => name.startsWith(prefix) || prefix.startsWith(name));
  }
}

/** The group a key belongs to: the part before its first `/`, or the whole key. */
function spaceName(key: string): string {
  const slash = key.indexOf("/");
  return slash === -1 ? key : key.slice(0, slash);
}

/** A group name as a safe file name: no separators, no leading dot. */
function fileName(name: string): string {
  return encodeURIComponent(name).replace(/^\./u, "%2E");
}

function serialize(entries: Map<string, StoredEntry>, now: number): string {
  const parts: string[] = [];
  for (const [key, entry] of entries) {
    if (!alive(entry, now)) {
      entries.delete(key);
      continue;
    }
    const expiry = entry.expiresAt === undefined ? "" : `,"expiresAt":${entry.expiresAt}`;
    parts.push(`${JSON.stringify(key)}:{"value":${entry.json}${expiry}}`);
  }
  return `{"version":1,"entries":{${parts.join(",")}}}\n`;
}

/** What identifies one version of a file on disk (undefined when it does not exist). */
async function stampOf(file: string): Promise<string | undefined> {
  try {
    const info = await stat(file);
    return `${info.ino}:${info.size}:${info.mtimeMs}`;
  } catch {
    return undefined;
  }
}
