import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { ModelRetriesError, withModelRetries } from "./model-retries.js";

/** An HTTP failure as the providers raise it. */
function httpError(status: number, headers: Record<string, string> = { "retry-after-ms": "0" }): APICallError {
  return new APICallError({
    message: `HTTP ${status}`,
    url: "http://127.0.0.1/v1/chat/completions",
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: headers,
  });
}

/** An attempt that throws each of `failures` in turn, then answers "ok"; it counts its calls. */
function attempts(...failures: unknown[]) {
  const calls = { count: 0 };
  const attempt = async () => {
    const failure = failures[calls.count];
    calls.count += 1;
    if (failure !== undefined) throw failure;
    return "ok";
  };
  return { attempt, calls };
}

describe("withModelRetries", () => {
  it("calls again after a retryable failure and returns the answer", async () => {
    const { attempt, calls } = attempts(httpError(503), httpError(429));
    await expect(withModelRetries(attempt, 2)).resolves.toBe("ok");
    expect(calls.count).toBe(3);
  });

  it("gives up after maxRetries retries with every attempt's error", async () => {
    const first = httpError(500);
    const second = httpError(502);
    const { attempt, calls } = attempts(first, second, httpError(503));
    const error = await withModelRetries(attempt, 1).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ModelRetriesError);
    expect((error as ModelRetriesError).errors).toEqual([first, second]);
    expect((error as ModelRetriesError).lastError).toBe(second);
    expect(calls.count).toBe(2);
  });

  it("throws a first failure that is not retryable as it is, after one attempt", async () => {
    const unauthorised = httpError(401);
    const { attempt, calls } = attempts(unauthorised);
    await expect(withModelRetries(attempt, 3)).rejects.toBe(unauthorised);
    expect(calls.count).toBe(1);
  });

  it("stops at a failure that is not retryable after a retried one, with both errors", async () => {
    const { attempt, calls } = attempts(httpError(500), httpError(400));
    const error = await withModelRetries(attempt, 3).catch((thrown: unknown) => thrown);
    expect((error as ModelRetriesError).errors.map((e) => (e as APICallError).statusCode)).toEqual([500, 400]);
    expect(calls.count).toBe(2);
  });

  it("never retries with maxRetries 0, nor an aborted call", async () => {
    const once = attempts(httpError(500));
    await expect(withModelRetries(once.attempt, 0)).rejects.toBeInstanceOf(APICallError);
    expect(once.calls.count).toBe(1);
    const timeout = new DOMException("timed out", "TimeoutError");
    const timedOut = attempts(timeout);
    await expect(withModelRetries(timedOut.attempt, 3)).rejects.toBe(timeout);
    expect(timedOut.calls.count).toBe(1);
  });

  it("waits what the server announces instead of its own 2 s backoff", async () => {
    const { attempt } = attempts(httpError(503, { "retry-after-ms": "40" }));
    const started = performance.now();
    await expect(withModelRetries(attempt, 1)).resolves.toBe("ok");
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(39);
    expect(waited).toBeLessThan(1500);
  });

  it("ends the wait before a retry when the caller aborts", async () => {
    const controller = new AbortController();
    const { attempt, calls } = attempts(httpError(429, { "retry-after": "30" }));
    const pending = withModelRetries(
      async () => {
        const answer = attempt();
        // The first attempt has failed: the retry now waits the announced 30 s.
        queueMicrotask(() => controller.abort());
        return answer;
      },
      2,
      controller.signal,
    );
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(calls.count).toBe(1);
  });
});
