import { mkdir, readdir, stat, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { KeyedQueue } from "@chorus/channel-kit";
import { CorruptFileError, readJsonFile, syncDirectory, writeFileAtomic } from "@chorus/channel-kit/state";
import { ChorusError } from "@chorus/core";
import {
  type AuthenticationCreds,
  type AuthenticationState,
  BufferJSON,
  initAuthCreds,
  makeCacheableSignalKeyStore,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from "@whiskeysockets/baileys";
import type { ILogger } from "@whiskeysockets/baileys/lib/Utils/logger.js";

const CREDS_FILE = "creds.json";
/** Files written at once when Baileys stores a batch of keys (812 pre-keys after linking). */
const PARALLEL_WRITES = 16;

/** The linked device's credentials and Signal keys, kept in one directory. */
export interface WhatsAppAuthState {
  readonly dir: string;
  /** What `makeWASocket({ auth })` takes; `creds` is mutated by Baileys, then saved with `saveCreds`. */
  readonly state: AuthenticationState;
  /** Writes `creds.json` (Baileys asks with `creds.update`). */
  saveCreds(): Promise<void>;
  /** Deletes every credential and key file (after WhatsApp logged the device out); later writes are dropped. */
  clear(): Promise<void>;
  /** Resolves when every write queued so far is on disk. */
  settled(): Promise<void>;
}

/** The credentials directory of an account: `authDir` (relative to `stateDir`), else `<stateDir>/auth`. */
export function authDirOf(config: { authDir?: string | undefined }, stateDir: string): string {
  return config.authDir === undefined ? join(stateDir, "auth") : resolve(stateDir, config.authDir);
}

/**
 * Whether the credentials belong to a device WhatsApp linked: it knows who it is and was
 * confirmed (QR pairing stores the signed `account`, pairing-code linking sets `registered`).
 * A pairing code that was requested but never entered leaves `me` without either.
 */
export function isLinked(creds: AuthenticationCreds): boolean {
  return typeof creds.me?.id === "string" && creds.me.id !== "" && (creds.account != null || creds.registered);
}

/**
 * Opens (creating when absent) the multi-file auth state in `dir`: the layout of Baileys'
 * `useMultiFileAuthState` (`creds.json` plus `<type>-<id>.json` per key, `BufferJSON` encoded).
 * Every write goes through the kit's atomic writer (temp file, fsync, rename, private mode), one
 * at a time per file, so a crash mid-write cannot corrupt the link.
 */
export async function openAuthState(dir: string, logger?: ILogger): Promise<WhatsAppAuthState> {
  await ensureDirectory(dir);
  const files = new AuthFiles();
  const creds = (await readCreds(dir)) ?? initAuthCreds();
  // After clear(), whatever the ended socket still stores (a key it fetched, new creds) is dropped.
  let cleared = false;
  const store: SignalKeyStore = {
    async get(type, ids) {
      const found: { [id: string]: SignalDataTypeMap[typeof type] } = {};
      await forEachLimited(ids, PARALLEL_WRITES, async (id) => {
        const value = await files.read(join(dir, keyFileName(type, id)));
        if (value === undefined) return;
        found[id] = (
          type === "app-state-sync-key" ? proto.Message.AppStateSyncKeyData.fromObject(value as object) : value
        ) as SignalDataTypeMap[typeof type];
      });
      return found;
    },
    async set(data: SignalDataSet) {
      const writes: { path: string; value: unknown }[] = [];
      for (const [type, entries] of Object.entries(data)) {
        for (const [id, value] of Object.entries(entries ?? {})) {
          writes.push({ path: join(dir, keyFileName(type, id)), value });
        }
      }
      let removed = false;
      await forEachLimited(writes, PARALLEL_WRITES, async ({ path, value }) => {
        if (cleared) return;
        if (value !== null && value !== undefined) return files.write(path, encode(value));
        removed = true;
        return files.remove(path);
      });
      // Writes flush the directory themselves; deletions of a batch are flushed once.
      if (removed && !cleared) await syncDirectory(dir);
    },
  };
  return {
    dir,
    state: { creds, keys: makeCacheableSignalKeyStore(store, logger) },
    saveCreds: async () => {
      if (!cleared) await files.write(join(dir, CREDS_FILE), encode(creds));
    },
    async clear() {
      cleared = true;
      await files.settled();
      const names = await readdir(dir).catch(() => [] as string[]);
      await forEachLimited(
        names.filter((name) => name.endsWith(".json") || name.endsWith(".tmp")),
        PARALLEL_WRITES,
        (name) => files.remove(join(dir, name)),
      );
      await syncDirectory(dir);
    },
    settled: () => files.settled(),
  };
}

/**
 * The auth directory's files: reads, writes and deletions of one file run one after the other
 * (a read waits for the writes queued before it), different files in parallel.
 */
class AuthFiles {
  readonly #queue = new KeyedQueue();
  readonly #pending = new Set<Promise<unknown>>();

  /** The decoded content, or undefined when the file is missing or unreadable (Baileys re-creates the key). */
  read(path: string): Promise<unknown> {
    return this.#run(path, async () => {
      try {
        return revive(await readJsonFile<unknown>(path));
      } catch (error) {
        if (error instanceof CorruptFileError) return undefined;
        throw error;
      }
    });
  }

  write(path: string, text: string): Promise<void> {
    return this.#run(path, () => writeFileAtomic(path, text, { mode: 0o600 }));
  }

  remove(path: string): Promise<void> {
    return this.#run(path, async () => {
      try {
        await unlink(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    });
  }

  /** Resolves when every operation queued so far has finished. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
  }

  #run<T>(path: string, task: () => Promise<T>): Promise<T> {
    const run = this.#queue.run(path, task);
    this.#pending.add(run);
    const forget = () => this.#pending.delete(run);
    run.then(forget, forget);
    return run;
  }
}

/** The file a key is kept in: Baileys' names (`/` → `__`, `:` → `-`), anything else unsafe escaped. */
export function keyFileName(type: string, id: string): string {
  const safe = `${type}-${id}`
    .replace(/\//g, "__")
    .replace(/:/g, "-")
    .replace(/[^A-Za-z0-9._@+=-]/g, (char) =>
      [...Buffer.from(char, "utf8")].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join(""),
    );
  return `${safe}.json`;
}

async function readCreds(dir: string): Promise<AuthenticationCreds | undefined> {
  const path = join(dir, CREDS_FILE);
  try {
    return revive(await readJsonFile<unknown>(path)) as AuthenticationCreds | undefined;
  } catch (error) {
    if (!(error instanceof CorruptFileError)) throw error;
    throw new ChorusError("E_AUTH", `the stored WhatsApp credentials in ${path} are unreadable`, {
      hint: "Delete the file and link the account again: chorus channels login whatsapp",
      cause: error,
    });
  }
}

/** Parsed JSON with Baileys' `BufferJSON` encoding of binary values turned back into Buffers. */
function revive(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  for (const [key, item] of Object.entries(record)) record[key] = revive(item);
  return BufferJSON.reviver("", record);
}

function encode(value: unknown): string {
  return JSON.stringify(value, BufferJSON.replacer);
}

async function ensureDirectory(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info && !info.isDirectory()) {
    throw new ChorusError("E_INVALID_INPUT", `the WhatsApp auth directory ${dir} exists but is not a directory`, {
      hint: "Point channels.whatsapp.authDir at a directory, or remove the file.",
    });
  }
  if (!info) await mkdir(dir, { recursive: true, mode: 0o700 });
}

/** Runs `task` over `items`, at most `limit` at a time; the first failure rejects after all finished. */
async function forEachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await task(item).catch((error: unknown) => errors.push(error));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (errors.length > 0) throw errors[0];
}
