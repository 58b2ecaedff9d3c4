import { acknowledges, type Receiver } from "@chorus/channel-kit";
import { type ChannelStore, type JsonValue, type Logger, MAX_STORE_VALUE_BYTES } from "@chorus/core";
import { AlbumParts, albumKeyOf, updateIdOf } from "./album.js";

/** Store keys of album items waiting for their window: `albumItems/<chat>/<media_group_id>/<update_id>`. */
const ITEMS = "albumItems/";
/** Store keys of albums emitted: `albumsDone/<chat>/<media_group_id>` → their items' update ids. */
const DONE = "albumsDone/";
/** How long an emitted album's update ids are kept: Telegram keeps an update at most 24 hours. */
const DONE_TTL_MS = 24 * 60 * 60 * 1000;

/** What the buffer needs. */
export interface AlbumBufferOptions {
  store: ChannelStore;
  /** Emits an album's message until the gateway committed it (`redelivery: "keep"`). */
  receiver: Receiver<unknown>;
  /** How long an album stays open after its last item (`albumWindowMs`). */
  windowMs(): number;
  logger: Logger;
}

/** What became of an item handed to `hold`. */
export type Held = "held" | "duplicate" | "too-large";

interface OpenAlbum {
  chatId: number;
  timer: NodeJS.Timeout | undefined;
  /** Emitting its message now; items arriving meanwhile open the album again once that ends. */
  flushing: boolean;
  again: boolean;
  done: Promise<void>;
  resolve(): void;
}

/**
 * Webhook mode's albums. Telegram posts one update per item and the next update of a chat only
 * after the previous one was answered 2xx (its webhook keeps one update per chat in flight:
 * telegram-bot-api `WebhookActor`, one queue per chat). Holding an item's answer until the album's
 * message is committed would hold back every item after it until the window closed, and the album
 * would arrive split. So an item is answered as soon as it is safe: once it is in the channel's
 * store, which outlives a crash. When no item came for `windowMs`, the album's message is emitted
 * from the store (again until committed); its items leave the store only then. A restart finds
 * what an earlier run left there (`resume`). An item Telegram posts again after its album was
 * emitted (an answer it lost) is recognised by its update id and dropped; a later item of the
 * same album is a message of its own.
 */
export class AlbumBuffer {
  readonly #open = new Map<string, OpenAlbum>();
  #stopped = false;

  constructor(private readonly options: AlbumBufferOptions) {}

  /** Keeps an album item in the store and (re)starts its album's window; resolves once it is stored. */
  async hold(update: unknown): Promise<Held> {
    const key = albumKeyOf(update);
    const id = updateIdOf(update);
    if (key === undefined || id === undefined) throw new Error("not an album item");
    const json = JSON.stringify(update);
    // A value the store cannot take: the item goes on as a message of its own.
    if (Buffer.byteLength(json) > MAX_STORE_VALUE_BYTES - 1024) return "too-large";
    const done = await this.options.store.get<number[]>(`${DONE}${key}`);
    if (Array.isArray(done) && done.includes(id)) return "duplicate";
    await this.options.store.set(`${ITEMS}${key}/${id}`, JSON.parse(json) as JsonValue);
    this.#arm(key, chatOf(key));
    return "held";
  }

  /** Resolves once no album of `chatId` waits any more, so the chat's next message comes after it. */
  async settled(chatId: number): Promise<void> {
    const waiting = [...this.#open.values()].filter((album) => album.chatId === chatId).map((album) => album.done);
    await Promise.all(waiting);
  }

  /** Emits the albums an earlier run left in the store. */
  async resume(): Promise<void> {
    this.#stopped = false;
    const keys = new Set<string>();
    for (const { key } of await this.options.store.list(ITEMS)) {
      keys.add(key.slice(ITEMS.length, key.lastIndexOf("/")));
    }
    for (const key of keys) this.#arm(key, chatOf(key));
  }

  /** Stops every window; what is stored stays for the next start. Chats waiting on an album go on. */
  stop(): void {
    this.#stopped = true;
    for (const album of this.#open.values()) {
      clearTimeout(album.timer);
      album.resolve();
    }
    this.#open.clear();
  }

  #arm(key: string, chatId: number): void {
    if (this.#stopped) return;
    let album = this.#open.get(key);
    if (!album) {
      let resolve = () => {};
      const done = new Promise<void>((r) => {
        resolve = r;
      });
      album = { chatId, timer: undefined, flushing: false, again: false, done, resolve };
      this.#open.set(key, album);
    }
    if (album.flushing) {
      album.again = true;
      return;
    }
    clearTimeout(album.timer);
    const open = album;
    open.timer = setTimeout(() => void this.#flush(key, open), this.options.windowMs());
  }

  /** Emits the album's message from what the store holds; on commit, forgets its items. */
  async #flush(key: string, album: OpenAlbum): Promise<void> {
    album.flushing = true;
    try {
      const entries = await this.options.store.list(`${ITEMS}${key}/`);
      const items = entries.map((e) => e.value).sort((a, b) => (updateIdOf(a) ?? 0) - (updateIdOf(b) ?? 0));
      if (items.length === 0) return;
      const receipt = await this.options.receiver.receive(new AlbumParts(items));
      // Not committed: only when stopping (a kept event is let go); the items wait in the store.
      if (!acknowledges(receipt)) return;
      const ids = items.map(updateIdOf).filter((id): id is number => id !== undefined);
      await this.options.store.update<number[]>(`${DONE}${key}`, (old) => [...(old ?? []), ...ids], {
        ttlMs: DONE_TTL_MS,
      });
      for (const entry of entries) await this.options.store.delete(entry.key);
    } catch (error) {
      this.options.logger.error(
        { err: error, album: key },
        "telegram: could not emit an album from the store; it is tried again at the next start",
      );
    } finally {
      album.flushing = false;
      if (album.again && !this.#stopped) {
        album.again = false;
        this.#arm(key, album.chatId);
      } else if (this.#open.get(key) === album) {
        this.#open.delete(key);
        album.resolve();
      }
    }
  }
}

function chatOf(key: string): number {
  return Number(key.slice(0, key.indexOf("/")));
}
