import { ChorusError, type JsonValue, MAX_STORE_KEY_LENGTH, MAX_STORE_VALUE_BYTES } from "@chorus/core";

/** Checks a store key, naming what is wrong with it. */
export function checkStoreKey(key: unknown): string {
  if (typeof key !== "string" || key === "") {
    throw new ChorusError("E_INVALID_INPUT", "store key must be a non-empty string");
  }
  if (key.length > MAX_STORE_KEY_LENGTH) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `store key "${key.slice(0, 40)}…" is ${key.length} characters; at most ${MAX_STORE_KEY_LENGTH}`,
    );
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f]/u.test(key))
    throw new ChorusError("E_INVALID_INPUT", `store key ${JSON.stringify(key)} contains a control character`);
  return key;
}

/** A value as the JSON text a store keeps, or `E_INVALID_INPUT` naming the key when it is not small JSON. */
export function storeValueText(key: string, value: JsonValue): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (_, item: unknown) => {
      if (typeof item === "number" && !Number.isFinite(item)) throw new Error(`${item} is not a JSON number`);
      if (typeof item === "bigint" || typeof item === "function" || typeof item === "symbol") {
        throw new Error(`a ${typeof item} is not JSON`);
      }
      return item;
    });
  } catch (error) {
    throw new ChorusError("E_INVALID_INPUT", `store value for "${key}" is not JSON: ${(error as Error).message}`);
  }
  if (text === undefined) throw new ChorusError("E_INVALID_INPUT", `store value for "${key}" is not JSON`);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_STORE_VALUE_BYTES) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `store value for "${key}" is ${bytes} bytes as JSON; a channel store keeps values up to ${MAX_STORE_VALUE_BYTES}`,
      { hint: "Keep large data (files, media) in stateDir, not in the store." },
    );
  }
  return text;
}

/** Checks a TTL, naming what is wrong with it; undefined means no expiry. */
export function expiryOf(ttlMs: number | undefined, now: number): number | undefined {
  if (ttlMs === undefined) return undefined;
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new ChorusError("E_INVALID_INPUT", `store ttlMs must be a positive number of milliseconds, got ${ttlMs}`);
  }
  return now + ttlMs;
}

/** One stored entry: its JSON text (parsed anew on every read, so callers never share an object) and expiry. */
export interface StoredEntry {
  json: string;
  expiresAt?: number;
}

/** True when the entry is still alive at `now`. */
export function alive(entry: StoredEntry | undefined, now: number): entry is StoredEntry {
  return entry !== undefined && (entry.expiresAt === undefined || entry.expiresAt > now);
}
