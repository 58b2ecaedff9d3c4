/** What the browser keeps across visits (localStorage): the name, the identity and the last room. */

const KEYS = {
  name: "chorus.webchat.name",
  userId: "chorus.webchat.userId",
  room: "chorus.webchat.room",
} as const;

export type StoredKey = keyof typeof KEYS;

/** The stored value, or null (also where storage is unavailable). */
export function load(key: StoredKey): string | null {
  try {
    return localStorage.getItem(KEYS[key]);
  } catch {
    return null;
  }
}

/** Stores a value; null removes it. Silently nothing where storage is unavailable (private mode). */
export function save(key: StoredKey, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(KEYS[key]);
    else localStorage.setItem(KEYS[key], value);
  } catch {
    // private mode
  }
}
