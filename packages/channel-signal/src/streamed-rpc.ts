import {
  anySignal,
  codeForStatus,
  type HttpAnswer,
  PlatformHttpError,
  parseRetryAfter,
  type Redactor,
  retrying,
} from "@chorus/channel-kit";
import { ChorusError, isChorusError, RateLimitedError } from "@chorus/core";
import { authHeaders, RPC_PATH, type SignalRpc } from "./client.js";

/** A request body sent as it is read: its exact length, opened again for each attempt. */
export interface StreamedBody {
  readonly length: number;
  open(): ReadableStream<Uint8Array>;
}

/** One JSON-RPC call posted by `StreamedRpc`. */
export interface StreamedCall {
  /** What the call does, for error messages (`send a message to …`). */
  readonly operation: string;
  /** The request: JSON text, or a body streamed with its length. */
  readonly body: string | StreamedBody;
  /** Whether repeating the call is harmless (no message sent twice). */
  readonly idempotent: boolean;
  /** How long the answer's status may take (the body is read after, as fast as it is consumed). */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

/** The instance's side of the calls: its lifetime, its redactor, and who hears whether the daemon answered. */
export interface StreamedRpcOptions {
  readonly signal: AbortSignal;
  readonly redactor: Redactor;
  onReachability?(reachable: boolean, error?: ChorusError): void;
}

/**
 * The JSON-RPC calls too large for the JSON client, which holds bodies whole: a `send` whose
 * attachments are streamed out as they are read, and `getAttachment`, whose answer is streamed
 * in. The same wire, errors, retries and redaction as `SignalRpc`: its `read` and `refusal` decide
 * what an answer means.
 */
export class StreamedRpc {
  constructor(
    readonly rpc: SignalRpc,
    private readonly options: StreamedRpcOptions,
  ) {}

  /** Posts `call`, retried as the JSON client retries, and resolves with `read` of the 2xx answer. */
  post<T>(call: StreamedCall, read: (response: Response) => Promise<T>): Promise<T> {
    const { retries, maxRetryAfterMs } = this.rpc.config;
    const signal = call.signal ? anySignal([this.options.signal, call.signal]) : this.options.signal;
    return retrying(async () => read(await this.#once(call, signal)), {
      retries,
      maxRetryAfterMs,
      idempotent: call.idempotent,
      signal,
      fail: (error) => (error instanceof Error ? this.options.redactor.error(error) : error),
    });
  }

  /** The `result` of a small JSON-RPC answer, or the error signal-cli answered, read as `SignalRpc.call` reads it. */
  async result<T>(response: Response, call: StreamedCall): Promise<T> {
    const text = await response.text();
    const read = this.rpc.http.options.read ?? ((answer: HttpAnswer) => answer.json);
    return read(answerOf(response, text, call)) as T;
  }

  async #once(call: StreamedCall, signal: AbortSignal): Promise<Response> {
    const headers = new Headers({
      accept: "application/json",
      "content-type": "application/json",
      ...authHeaders(this.rpc.config),
    });
    const body = typeof call.body === "string" ? call.body : call.body.open();
    if (typeof call.body !== "string") headers.set("content-length", String(call.body.length));
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), call.timeoutMs);
    let response: Response;
    try {
      response = await fetch(new URL(RPC_PATH, this.rpc.config.httpUrl), {
        method: "POST",
        headers,
        body,
        // Not followed: fetch would keep a copy of the streamed body to resend it (nodejs/undici#4058).
        redirect: "error",
        duplex: "half",
        signal: anySignal([signal, timeout.signal]),
      } as RequestInit);
    } catch (error) {
      // The body's own failure (a medium that did not have its size): nothing went out whole.
      const own = chorusCause(error);
      if (own) throw own;
      if (this.options.signal.aborted) throw new ChorusError("E_DISABLED", "Signal is stopping", { cause: error });
      if (signal.aborted) throw signal.reason;
      const reason = timeout.signal.aborted ? `no answer within ${call.timeoutMs} ms` : causeOf(error);
      const failure = new ChorusError("E_PLATFORM", `signal-cli unreachable (${call.operation}): ${reason}`, {
        retryable: true,
        details: { network: true },
        cause: error,
        ...(this.rpc.http.options.hints?.E_PLATFORM ? { hint: this.rpc.http.options.hints.E_PLATFORM } : {}),
      });
      this.options.onReachability?.(false, failure);
      throw failure;
    } finally {
      clearTimeout(timer);
    }
    this.options.onReachability?.(true);
    if (response.status >= 200 && response.status < 300) return response;
    const text = await response.text().catch(() => "");
    throw this.#refusal(answerOf(response, text, call));
  }

  /** A non-2xx answer (a proxy's, or the daemon's 421), as the JSON client maps it. */
  #refusal(answer: HttpAnswer): ChorusError {
    const custom = this.rpc.http.options.refusal?.(answer);
    if (custom) return custom;
    const { status, operation } = answer;
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(answer.headers.get("retry-after"));
      return new RateLimitedError(`signal-cli rate limit (${operation})`, retryAfterMs);
    }
    const code = codeForStatus(status);
    const hint = this.rpc.http.options.hints?.[code];
    return new PlatformHttpError(code, `signal-cli refused to ${operation} (HTTP ${status})`, status, undefined, {
      retryable: status >= 500 || status === 408,
      ...(hint !== undefined ? { hint } : {}),
    });
  }
}

function answerOf(response: Response, text: string, call: StreamedCall): HttpAnswer {
  let json: unknown;
  try {
    json = text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    call: { method: "POST", path: RPC_PATH, operation: call.operation, idempotent: call.idempotent },
    operation: call.operation,
    status: response.status,
    headers: response.headers,
    text,
    json,
  };
}

/** A `ChorusError` a request body threw, somewhere in fetch's causes. */
function chorusCause(error: unknown): ChorusError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (isChorusError(current)) return current as ChorusError;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The useful part of a fetch failure: undici hides the reason (`ECONNREFUSED …`) in `cause`. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code && cause.message)
    return cause.message.includes(cause.code) ? cause.message : `${cause.code} ${cause.message}`;
  return cause?.message ?? (error as Error).message ?? String(error);
}
