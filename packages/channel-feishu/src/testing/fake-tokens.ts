import { randomBytes } from "node:crypto";

/** Feishu hands out the same tenant token until less than 30 minutes of it are left. */
const REUSE_WHILE_MS = 30 * 60_000;

/**
 * The fake's `tenant_access_token`s: issued by `/auth/v3/tenant_access_token/internal` with their
 * remaining lifetime in `expire` (seconds), checked on every other call, and expirable by a test.
 */
export class FakeTokens {
  readonly #expiry = new Map<string, number>();
  #current: string | undefined;
  /** Every token issued, oldest first. */
  readonly issued: string[] = [];

  constructor(private readonly ttlSeconds: number) {}

  /** The token to hand out now and how many seconds it has left. */
  issue(now = Date.now()): { token: string; expire: number } {
    const current = this.#current;
    const left = current === undefined ? 0 : (this.#expiry.get(current) ?? 0) - now;
    if (current !== undefined && left >= Math.min(REUSE_WHILE_MS, (this.ttlSeconds * 1000) / 2)) {
      return { token: current, expire: Math.floor(left / 1000) };
    }
    const token = `t-g${randomBytes(20).toString("hex")}`;
    this.#expiry.set(token, now + this.ttlSeconds * 1000);
    this.#current = token;
    this.issued.push(token);
    return { token, expire: this.ttlSeconds };
  }

  /** Whether `token` was issued here and has not expired. */
  valid(token: string, now = Date.now()): boolean {
    return (this.#expiry.get(token) ?? 0) > now;
  }

  /** Ends every token at once (the tenant revoked them, or time ran out before the client's clock said so). */
  expireAll(): void {
    for (const token of this.#expiry.keys()) this.#expiry.set(token, 0);
    this.#current = undefined;
  }
}
