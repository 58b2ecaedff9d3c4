import { mkdir, readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
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
import { AtomicFiles, syncDirectory } from "./atomic-file.js";

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
 * `useMultiFileAuthState` (`creds.json` plus `<type>-<id>.json` per key, `BufferJSON` encoded),
 * but every write is atomic and durable, so a crash mid-write cannot corrupt the link.
 */
export async function openAuthState(dir: string, logger?: ILogger): Promise<WhatsAppAuthState> {
  await ensureDirectory(dir);
  const files = new AtomicFiles();
  const creds = (await readCreds(files, dir)) ?? initAuthCreds();
  // After clear(), whatever the ended socket still stores (a key it fetched, new creds) is dropped.
  let cleared = false;
  const store: SignalKeyStore = {
    async get(type, ids) {
      const found: { [id: string]: SignalDataTypeMap[typeof type] } = {};
      await forEachLimited(ids, PARALLEL_WRITES, async (id) => {
        const value = await readKey(files, join(dir, keyFileName(type, id)));
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
      await forEachLimited(writes, PARALLEL_WRITES, async ({ path, value }) => {
        if (cleared) return;
        await (value === null || value === undefined ? files.remove(path) : files.write(path, encode(value)));
      });
      // One directory flush for the whole batch instead of one per key file.
      if (writes.length > 0 && !cleared) await syncDirectory(dir);
    },
  };
  return {
    dir,
    state: { creds, keys: makeCacheableSignalKeyStore(store, logger) },
    saveCreds: async () => {
      if (!cleared) await files.write(join(dir, CREDS_FILE), encode(creds), { sync: true });
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
 * Writes credentials of an already linked device where an instance with this `stateDir` (and
 * `authDir`, if configured) reads them. For tests that start an instance against a fake server,
 * and for moving a link made by another Baileys program.
 */
export async function saveLinkedCreds(
  stateDir: string,
  creds: AuthenticationCreds,
  config: { authDir?: string | undefined } = {},
): Promise<void> {
  const dir = authDirOf(config, stateDir);
  await ensureDirectory(dir);
  await new AtomicFiles().write(join(dir, CREDS_FILE), encode(creds), { sync: true });
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

async function readCreds(files: AtomicFiles, dir: string): Promise<AuthenticationCreds | undefined> {
  const path = join(dir, CREDS_FILE);
  const text = await files.read(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text, BufferJSON.reviver) as AuthenticationCreds;
  } catch (error) {
    throw new ChorusError("E_AUTH", `the stored WhatsApp credentials in ${path} are unreadable`, {
      hint: "Delete the file and link the account again: chorus channels login whatsapp",
      cause: error,
    });
  }
}

async function readKey(files: AtomicFiles, path: string): Promise<unknown> {
  const text = await files.read(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text, BufferJSON.reviver) as unknown;
  } catch {
    // A key file that cannot be read is a key Baileys does not have; it re-creates sessions.
    return undefined;
  }
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
