import type { IncomingMessage } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { tooLarge } from "@chorus/channel-kit";
import { ChorusError, isChorusError } from "@chorus/core";
import { type AddressPolicy, allowedWhatever } from "./address-guard.js";
import { addressCheck, pinnedLookup, type Resolve, systemResolve } from "./pinned-lookup.js";

export interface GuardedFetchOptions {
  readonly policy: AddressPolicy;
  /** Stop with `E_TOO_LARGE` past this many bytes (a larger `Content-Length` fails before reading). */
  readonly maxBytes: number;
  /** The medium in messages (`media.0.url`); never the URL itself, which may carry a token. */
  readonly what: string;
  readonly signal?: AbortSignal | undefined;
  /** DNS (tests inject answers; default the system's). */
  readonly resolve?: Resolve | undefined;
  readonly maxRedirects?: number | undefined;
  /** No byte for this long ends the request. */
  readonly idleMs?: number | undefined;
}

/** A fetched medium: its body streamed, what the server said of it, and whether only public addresses were used. */
export interface FetchedMedium {
  readonly stream: ReadableStream<Uint8Array>;
  readonly mime?: string;
  readonly size?: number;
  /** Every hop reached a public address (no allowance was needed): the URL is one a recipient can open too. */
  readonly public: boolean;
}

/**
 * GETs a caller's media URL (DESIGN §2.6 rule 1) with the address guard on every hop: the host's
 * addresses are checked as they are resolved for the connection and the connection gets only those
 * (`pinnedLookup`); an IP written in the URL is checked before connecting; redirects are followed
 * by hand, each hop checked again. No connection is pooled or reused across requests.
 */
export async function fetchGuarded(url: string, options: GuardedFetchOptions): Promise<FetchedMedium> {
  let target = new URL(url);
  let everyHopPublic = true;
  for (let hop = 0; ; hop++) {
    if (target.protocol !== "http:" && target.protocol !== "https:") {
      throw new ChorusError("E_INVALID_INPUT", `${options.what}: only http and https URLs can be fetched.`);
    }
    const whatever = allowedWhatever(options.policy, target);
    if (whatever) everyHopPublic = false;
    const response = await get(target, whatever, options, () => {
      everyHopPublic = false;
    });
    const location = response.headers.location;
    if (response.statusCode !== undefined && response.statusCode >= 300 && response.statusCode < 400 && location) {
      response.destroy();
      if (hop >= (options.maxRedirects ?? 5)) {
        throw new ChorusError("E_PLATFORM", `${options.what}: the URL was redirected too often.`);
      }
      target = new URL(location, target);
      continue;
    }
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      response.destroy();
      throw new ChorusError(
        status === 404 || status === 410 ? "E_INVALID_INPUT" : "E_PLATFORM",
        `${options.what}: fetching the URL failed: HTTP ${status}.`,
        { retryable: status >= 500 || status === 429, details: { status } },
      );
    }
    const declared = Number(response.headers["content-length"] ?? Number.NaN);
    const size = Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined;
    if (size !== undefined && size > options.maxBytes) {
      response.destroy();
      throw tooLarge(options.what, options.maxBytes, size);
    }
    const mime = response.headers["content-type"]?.split(";")[0]?.trim();
    return {
      stream: streamOf(response),
      ...(mime ? { mime } : {}),
      ...(size !== undefined ? { size } : {}),
      public: everyHopPublic,
    };
  }
}

/** One GET, its address checked; resolves with the response once its headers are in. */
function get(
  target: URL,
  whatever: boolean,
  options: GuardedFetchOptions,
  onAllowed: () => void,
): Promise<IncomingMessage> {
  const port = target.port || (target.protocol === "https:" ? "443" : "80");
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (!whatever && isIP(host) !== 0) {
    const checked = addressCheck(options.policy, options.what, host, port);
    if (checked === "allowed") onAllowed();
    else if (checked) return Promise.reject(checked);
  }
  const request = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(target, {
      method: "GET",
      agent: false,
      headers: { accept: "*/*", "user-agent": "Chorus (media fetch)" },
      ...(whatever
        ? {}
        : {
            lookup: pinnedLookup({
              resolve: options.resolve ?? systemResolve,
              policy: options.policy,
              port,
              what: options.what,
              onAllowed,
            }),
          }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    req.setTimeout(options.idleMs ?? 30_000, () => {
      req.destroy(
        new ChorusError("E_PLATFORM", `${options.what}: the server did not answer in time.`, { retryable: true }),
      );
    });
    req.once("response", resolve);
    req.once("error", (error) => reject(failure(error, options)));
    req.end();
  });
}

/** A request's error as the caller sees it: the guard's refusal as it is, a network failure named without the URL. */
function failure(error: unknown, options: GuardedFetchOptions): unknown {
  if (isChorusError(error)) return error;
  if (options.signal?.aborted) return options.signal.reason;
  const code = (error as NodeJS.ErrnoException).code;
  return new ChorusError("E_PLATFORM", `${options.what}: fetching the URL failed (${code ?? "network error"}).`, {
    retryable: true,
  });
}

/** A response body as a web stream, read only as fast as the stream is read; errors named without the URL. */
function streamOf(response: IncomingMessage): ReadableStream<Uint8Array> {
  const chunks = response[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await chunks.next();
          if (done) controller.close();
          else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
        } catch {
          controller.error(new ChorusError("E_PLATFORM", "The media URL's answer broke off.", { retryable: true }));
        }
      },
      cancel() {
        response.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}
