import type { Redactor } from "@chorus/channel-kit";

interface Entry {
  value: unknown;
  /** Epoch ms after which the entry is gone; undefined keeps it. */
  expiresAt: number | undefined;
}

/**
 * The SDK's token cache, one per running account. The SDK's default is a process-wide map shared
 * by every client of the same app id, which would hand one account's (or one test's) token to
 * another. The SDK fetches `tenant_access_token` itself and stores it here with its expiry (minus
 * three minutes); `clear()` forgets it when Feishu says it is no longer valid. Every token seen is
 * taught to the redactor: it is a secret too.
 */
export class TokenCache {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly redactor: Redactor,
    private readonly now: () => number = Date.now,
  ) {}

  // biome-ignore lint/complexity/noBannedTypes: the SDK's Cache interface types keys as the Symbol wrapper
  async get(key: string | Symbol, options?: { namespace?: string }): Promise<unknown> {
    const name = this.#name(key, options);
    const entry = this.#entries.get(name);
    if (!entry) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= this.now()) {
      this.#entries.delete(name);
      return undefined;
    }
    return entry.value;
  }

  // biome-ignore lint/complexity/noBannedTypes: as above
  async set(key: string | Symbol, value: unknown, expiresAt?: number, options?: { namespace?: string }) {
    if (typeof value === "string") this.redactor.add(value);
    this.#entries.set(this.#name(key, options), { value, expiresAt });
    return true;
  }

  /** Forgets every token: the next call makes the SDK fetch a fresh one. */
  clear(): void {
    this.#entries.clear();
  }

  // biome-ignore lint/complexity/noBannedTypes: as above
  #name(key: string | Symbol, options?: { namespace?: string }): string {
    return `${options?.namespace ?? ""}/${typeof key === "string" ? key : (key.description ?? "")}`;
  }
}
