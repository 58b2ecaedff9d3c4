import { type ChannelStatus, ChorusError, type Logger, toChorusError } from "@chorus/core";
import { REDACTED, SECRET_PATTERNS } from "./patterns.js";

/** Secrets shorter than this are not redacted: replacing them would shred ordinary text. */
const MIN_SECRET_LENGTH = 6;
/** How deep `value()` walks nested objects. */
const MAX_DEPTH = 8;

/**
 * Removes an account's secrets from anything a channel reports: log lines, errors, status
 * details. It knows the secret values themselves (in every spelling a URL or JSON gives them)
 * and recognisable secret shapes (bot tokens, bearer headers, passwords in URLs).
 */
export class Redactor {
  #forms: string[] = [];

  constructor(secrets: Iterable<string | undefined | null> = []) {
    this.add(...secrets);
  }

  /** Adds secrets learned at run time (a session cookie, a generated key). */
  add(...secrets: (string | undefined | null)[]): void {
    const forms = new Set(this.#forms);
    for (const secret of secrets) {
      if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) continue;
      forms.add(secret);
      forms.add(encodeURIComponent(secret));
      forms.add(JSON.stringify(secret).slice(1, -1));
      forms.add(Buffer.from(secret).toString("base64").replace(/=+$/u, ""));
    }
    // Longest first: a secret that contains another is replaced whole.
    this.#forms = [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  }

  /** `text` with every known secret and every recognisable secret shape replaced. */
  text(text: string): string {
    let out = text;
    for (const form of this.#forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    for (const { pattern, replace } of SECRET_PATTERNS) out = out.replace(pattern, replace);
    return out;
  }

  /** A copy of a JSON-like value (log fields, error details) with secrets removed from every string. */
  value<T>(value: T): T {
    return this.#walk(value, 0) as T;
  }

  /** The error as a `ChorusError` of the same class, with secrets removed from its message, hint, details and causes. */
  error(error: unknown): ChorusError {
    return this.#error(toChorusError(error)) as ChorusError;
  }

  /** A status whose detail carries no secret. */
  status(status: ChannelStatus): ChannelStatus {
    return status.detail === undefined ? status : { ...status, detail: this.text(status.detail) };
  }

  /** A logger that redacts every message and field before `logger` sees it. */
  logger(logger: Logger): Logger {
    const wrap =
      (log: Logger["info"]): Logger["info"] =>
      (fields: Record<string, unknown> | string, message?: string) => {
        if (typeof fields === "string") return log(this.text(fields));
        return message === undefined ? log(this.value(fields)) : log(this.value(fields), this.text(message));
      };
    return {
      debug: wrap(logger.debug.bind(logger)),
      info: wrap(logger.info.bind(logger)),
      warn: wrap(logger.warn.bind(logger)),
      error: wrap(logger.error.bind(logger)),
      child: (bindings) => this.logger(logger.child(this.value(bindings))),
    };
  }

  #walk(value: unknown, depth: number): unknown {
    if (typeof value === "string") return this.text(value);
    if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return value;
    if (value instanceof Error) return this.#error(value, depth);
    if (Array.isArray(value)) return value.map((item) => this.#walk(item, depth + 1));
    if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
      return this.text(String(value)) === String(value) ? value : REDACTED;
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = this.#walk(item, depth + 1);
    return out;
  }

  /**
   * A copy of `error` with every text field redacted. A `ChorusError` keeps its class (callers
   * check `instanceof RateLimitedError`); any other error (a library's, a `DOMException` with
   * internal slots) becomes a plain `Error` with the same name, message, stack, cause and fields.
   */
  #error(error: Error, depth = 0): Error {
    const copy = (error instanceof ChorusError ? Object.create(Object.getPrototypeOf(error)) : new Error()) as Error &
      Record<string, unknown>;
    for (const [key, item] of Object.entries(error)) copy[key] = this.#walk(item, depth + 1);
    const own = (key: string, value: unknown) =>
      Object.defineProperty(copy, key, { value, writable: true, configurable: true, enumerable: false });
    if (!(error instanceof ChorusError)) own("name", String(error.name));
    own("message", this.text(String(error.message)));
    own("stack", error.stack === undefined ? undefined : this.text(error.stack));
    if (error.cause !== undefined) own("cause", this.#walk(error.cause, depth + 1));
    if (error instanceof ChorusError && error.hint !== undefined) copy.hint = this.text(error.hint);
    return copy;
  }
}

/** The string values at `keys` (dotted paths) of a validated config: the secrets a `Redactor` should know. */
export function secretsOf(config: unknown, keys: readonly string[] = []): string[] {
  const found: string[] = [];
  for (const key of keys) {
    let value: unknown = config;
    for (const part of key.split(".")) {
      value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[part] : undefined;
    }
    if (typeof value === "string") found.push(value);
    if (Array.isArray(value)) found.push(...value.filter((v): v is string => typeof v === "string"));
  }
  return found;
}

export { REDACTED };
