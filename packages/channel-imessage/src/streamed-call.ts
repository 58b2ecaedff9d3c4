import {
  anySignal,
  codeForStatus,
  type HttpAnswer,
  type HttpMethod,
  PlatformHttpError,
  type Redactor,
} from "@chorus/channel-kit";
import { ChorusError } from "@chorus/core";
import { refusal } from "./envelope.js";

/** One call whose body or answer is a stream of bytes (an upload, a download), made beside the JSON client. */
export interface StreamedCall {
  method: HttpMethod;
  /** The URL with the password: never logged, never in an error. */
  url: URL;
  operation: string;
  headers?: Record<string, string>;
  body?: ReadableStream<Uint8Array>;
  /** Until the answer's headers arrive; the body of a download is then read at the consumer's pace. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/** What a streamed call needs of the client around it. */
export interface StreamedCallContext {
  label: string;
  redactor: Redactor;
  onReachability?(reachable: boolean, error?: ChorusError): void;
}

/**
 * Makes `call` once (a stream is not sent twice; a lost answer of a send may mean the message went
 * out) and resolves with the 2xx response, its body unread. A refusal is read from the server's
 * envelope as every other answer is (`envelope.ts`); a network failure is a retryable `E_PLATFORM`.
 * Errors name the operation, never the URL, and pass the redactor.
 */
export async function streamedCall(context: StreamedCallContext, call: StreamedCall): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no answer within ${call.timeoutMs} ms`)), call.timeoutMs);
  const signal = call.signal ? anySignal([call.signal, controller.signal]) : controller.signal;
  let response: Response;
  try {
    response = await fetch(call.url, {
      method: call.method,
      ...(call.headers ? { headers: call.headers } : {}),
      ...(call.body ? { body: call.body, duplex: "half" } : {}),
      // undici's fetch keeps a copy of a streamed body to follow redirects (nodejs/undici#4058).
      redirect: "error",
      signal,
    } as RequestInit);
  } catch (error) {
    if (call.signal?.aborted) {
      throw context.redactor.error(new ChorusError("E_DISABLED", `${context.label}: ${call.operation} was stopped`));
    }
    const reason = controller.signal.aborted ? `no answer within ${call.timeoutMs} ms` : causeOf(error);
    const failure = new ChorusError("E_PLATFORM", `${context.label} unreachable (${call.operation}): ${reason}`, {
      retryable: true,
      details: { network: true },
    });
    context.onReachability?.(false, failure);
    throw context.redactor.error(failure);
  } finally {
    clearTimeout(timer);
  }
  context.onReachability?.(true);
  if (response.ok) return response;
  const text = await response.text().catch(() => "");
  const answer: HttpAnswer = {
    call: { method: call.method, path: call.url.pathname },
    operation: call.operation,
    status: response.status,
    headers: response.headers,
    text,
    json: parseJson(text),
  };
  const refused =
    refusal(answer) ??
    new PlatformHttpError(
      codeForStatus(response.status),
      `${context.label} refused to ${call.operation} (HTTP ${response.status})`,
      response.status,
      undefined,
      { retryable: response.status >= 500 || response.status === 429 },
    );
  throw context.redactor.error(refused);
}

/** The useful part of a fetch failure: undici keeps the reason (`ECONNREFUSED`) in `cause`. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (typeof cause?.code === "string") return cause.code;
  if (typeof cause?.message === "string") return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function parseJson(text: string): unknown {
  try {
    return text.trim() === "" ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
