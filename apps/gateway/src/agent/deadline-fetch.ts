/** A `fetch` the model provider uses for its HTTP calls. */
export type ModelFetch = typeof globalThis.fetch;

/** The longest delay a Node timer takes; a longer one would fire at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * A fetch whose every request (answer and body) is aborted after `timeoutMs`, with a `TimeoutError`;
 * the caller's signal still aborts it earlier.
 *
 * The deadline is a timer that aborts an AbortController the request uses, and the timer holds the
 * controller until the body is read or the call ends. Not the caller's signal and a timeout's linked (`anySignal`):
 * such a signal is held only weakly by the signals it combines, nothing holds it once the answer's
 * headers arrived, and a garbage collection then takes it — a stream that stalls after its headers
 * would never be aborted (Node 20).
 */
export function fetchWithTimeout(timeoutMs: number, base: ModelFetch = globalThis.fetch): ModelFetch {
  return async (input, init) => {
    const deadline = new Deadline(timeoutMs, init?.signal ?? undefined);
    try {
      return deadline.watch(await base(input, { ...init, signal: deadline.signal }));
    } catch (error) {
      deadline.end();
      throw error;
    }
  };
}

/** One request's deadline: aborts `signal` at the timeout or when the caller's signal aborts, until `end()`. */
class Deadline {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #caller: AbortSignal | undefined;
  readonly #callerAborted = (): void => this.#controller.abort(this.#caller?.reason);

  constructor(timeoutMs: number, caller: AbortSignal | undefined) {
    this.#caller = caller;
    // The timer list holds this timer, the timer this deadline: the controller outlives any stall.
    this.#timer = setTimeout(() => this.#timedOut(timeoutMs), Math.min(timeoutMs, LONGEST_TIMER_MS));
    // It does not keep a process alive by itself (a CLI command that ends while a request is out).
    this.#timer.unref();
    if (caller?.aborted) this.#callerAborted();
    else caller?.addEventListener("abort", this.#callerAborted, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The request is over (its body read, cancelled or failed): nothing aborts it any more. */
  end(): void {
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener("abort", this.#callerAborted);
  }

  /** The answer, its body passed through so the deadline ends when the body does. */
  watch(response: Response): Response {
    const body = response.body;
    if (body === null) {
      this.end();
      return response;
    }
    const reader = body.getReader();
    const watched = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const { done, value } = await reader.read();
          if (done) {
            this.end();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          this.end();
          controller.error(error);
        }
      },
      cancel: (reason) => {
        this.end();
        return reader.cancel(reason);
      },
    });
    const copy = new Response(watched, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    for (const key of ["url", "redirected", "type"] as const)
      Object.defineProperty(copy, key, { value: response[key], enumerable: true });
    return copy;
  }

  #timedOut(timeoutMs: number): void {
    this.end();
    // The same reason `AbortSignal.timeout` gives: `toAgentError` knows it as a timeout.
    this.#controller.abort(new DOMException(`The model call took longer than ${timeoutMs}ms`, "TimeoutError"));
  }
}
