/** Every code a fake-server error carries. */
export type FakeServerErrorCode = "E_HTTP" | "E_INVALID_JSON" | "E_TIMEOUT" | "E_NOT_STARTED" | "E_SERVER_STATE";

/** The base error of the fake-server toolkit: a stable `code` and a human message. */
export class FakeServerError extends Error {
  override readonly name: string = "FakeServerError";
  readonly code: FakeServerErrorCode;

  constructor(code: FakeServerErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Thrown by a route handler to answer with `status` and a JSON `body` instead of crashing (500). */
export class HttpError extends FakeServerError {
  override readonly name: string = "HttpError";
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown, message = `HTTP ${status}`, code: FakeServerErrorCode = "E_HTTP") {
    super(code, message);
    this.status = status;
    this.body = body;
  }
}

/** `ctx.json()` found a body that is not JSON; answered as 400. */
export class InvalidJsonError extends HttpError {
  override readonly name = "InvalidJsonError";

  constructor(detail: string) {
    super(
      400,
      { error: "invalid json", message: detail },
      `Request body is not valid JSON: ${detail}`,
      "E_INVALID_JSON",
    );
  }
}

/** A wait (`waitFor`, `waitForRequest`) ran out of time. */
export class WaitTimeoutError extends FakeServerError {
  override readonly name = "WaitTimeoutError";
  readonly timeoutMs: number;

  constructor(message: string, timeoutMs: number) {
    super("E_TIMEOUT", message);
    this.timeoutMs = timeoutMs;
  }
}
