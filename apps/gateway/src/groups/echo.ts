import { createHash } from "node:crypto";
import { ChorusError } from "@chorus/core";

export interface EchoGuardOptions {
  /** Sessions remembered at once (least recently used forgotten first); default 10,000. */
  maxKeys?: number;
}

/**
 * Echo suppression on the combined batch (DESIGN §4): the same batch string twice in a row
 * without a mention gets one answer. Keeps a hash of the last batch per session, LRU-bounded.
 */
export class EchoGuard {
  readonly #last = new Map<string, string>();
  readonly #maxKeys: number;

  constructor(options: EchoGuardOptions = {}) {
    const { maxKeys = 10_000 } = options;
    if (!Number.isInteger(maxKeys) || maxKeys < 1) {
      throw new ChorusError("E_INVALID_INPUT", `EchoGuard maxKeys must be a whole number ≥ 1, got ${maxKeys}`);
    }
    this.#maxKeys = maxKeys;
  }

  /** True when `batch` repeats this session's previous batch and there was no mention; records it either way. */
  isRepeat(key: string, batch: string, mentioned: boolean): boolean {
    const digest = createHash("sha256").update(batch).digest("base64");
    const previous = this.#last.get(key);
    this.#last.delete(key);
    if (this.#last.size >= this.#maxKeys) {
      const oldest = this.#last.keys().next().value;
      if (oldest !== undefined) this.#last.delete(oldest);
    }
    this.#last.set(key, digest);
    return !mentioned && previous === digest;
  }

  /** Forgets a session's last batch (after `/new` or `/reset`). */
  clear(key: string): void {
    this.#last.delete(key);
  }

  /** Sessions remembered. */
  get size(): number {
    return this.#last.size;
  }
}
