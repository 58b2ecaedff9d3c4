import { WaitTimeoutError } from "./errors.js";
import { compilePattern, describeRoute, matchesMethod } from "./pattern.js";
import type { PathPattern, RecordedRequest, RequestMatch } from "./types.js";

/** Options of `waitForRequest`. */
export interface WaitForRequestOptions {
  /** Give up after this long; default 5000. */
  timeoutMs?: number;
  /** Only requests at this index of the log or later count; default 0 (any recorded request). */
  since?: number;
}

const LISTED_ON_TIMEOUT = 30;

/** The ordered list of requests a fake answered, with waiting for the next matching one. */
export class RequestLog {
  #entries: RecordedRequest[] = [];
  readonly #listeners = new Set<(entry: RecordedRequest, index: number) => void>();

  /** A snapshot of every recorded request, oldest first. */
  get all(): readonly RecordedRequest[] {
    return [...this.#entries];
  }

  /** Appends a request and wakes the waiters it satisfies. */
  record(entry: RecordedRequest): void {
    this.#entries.push(entry);
    const index = this.#entries.length - 1;
    for (const listener of [...this.#listeners]) listener(entry, index);
  }

  /** Forgets every recorded request (pending waiters keep waiting). */
  clear(): void {
    this.#entries = [];
  }

  /** The recorded requests with this method (`"*"` = any) and path pattern. */
  to(method: string, path: PathPattern): RecordedRequest[] {
    return this.#entries.filter(requestMatcher({ method, path }));
  }

  /** Resolves with the first request matching `match` at index `since` or later, waiting for it if needed. */
  waitFor(match: RequestMatch, options: WaitForRequestOptions = {}): Promise<RecordedRequest> {
    const { timeoutMs = 5000, since = 0 } = options;
    const test = requestMatcher(match);
    const already = this.#entries.slice(since).find(test);
    if (already) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const listener = (entry: RecordedRequest, index: number): void => {
        if (index < since || !test(entry)) return;
        this.#listeners.delete(listener);
        clearTimeout(timer);
        resolve(entry);
      };
      const timer = setTimeout(() => {
        this.#listeners.delete(listener);
        reject(new WaitTimeoutError(this.#timeoutMessage(match, timeoutMs, since), timeoutMs));
      }, timeoutMs);
      this.#listeners.add(listener);
    });
  }

  #timeoutMessage(match: RequestMatch, timeoutMs: number, since: number): string {
    const shown = this.#entries.slice(-LISTED_ON_TIMEOUT);
    const offset = this.#entries.length - shown.length;
    const lines = shown.map((entry, i) => `  #${offset + i} ${describeRecorded(entry)}`);
    const header = `Timed out after ${timeoutMs}ms waiting for a request matching ${describeMatch(match)} (since #${since}).`;
    const listing = lines.length === 0 ? "No requests were recorded." : `Recorded requests (${this.#entries.length}):`;
    return [header, listing, ...lines].join("\n");
  }
}

/** Turns a `RequestMatch` into a predicate on recorded requests. */
export function requestMatcher(match: RequestMatch): (request: RecordedRequest) => boolean {
  if (typeof match === "function") return match;
  const path = match.path === undefined ? undefined : compilePattern(match.path);
  return (request) =>
    matchesMethod(match.method, request.method) &&
    (path === undefined || path(request.path) !== undefined) &&
    (match.where === undefined || match.where(request));
}

/** A one-line summary of a recorded request: `POST /x → 429 [fault: rateLimit]`. */
export function describeRecorded(request: RecordedRequest): string {
  const fault = request.fault ? ` [fault: ${request.fault}]` : "";
  return `${request.method} ${request.path} → ${request.status === 0 ? "no answer" : request.status}${fault}`;
}

function describeMatch(match: RequestMatch): string {
  if (typeof match === "function") return "a predicate";
  const where = match.where ? " (with a predicate)" : "";
  return `${describeRoute(match.method, match.path)}${where}`;
}
