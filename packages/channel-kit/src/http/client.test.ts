import { ChorusError, RateLimitedError } from "@chorus/core";
import { afterEach, describe, expect, it } from "vitest";
import { Redactor } from "../redact/redactor.js";
import { closedPort, json, type Reply, reset, scriptedServer, text } from "../test-support.test-util.js";
import { HttpClient, type HttpClientOptions } from "./client.js";
import { PlatformHttpError } from "./errors.js";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function clientFor(replies: Reply[], options: Partial<HttpClientOptions> = {}) {
  const server = await scriptedServer(...replies);
  close = server.close;
  const client = new HttpClient({
    label: "Acme",
    baseUrl: `${server.url}/api/`,
    timeoutMs: 2_000,
    retries: 2,
    maxRetryAfterMs: 1_000,
    ...options,
  });
  return { client, received: server.received };
}

async function failure(promise: Promise<unknown>): Promise<ChorusError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ChorusError);
  return error as ChorusError;
}

describe("HttpClient", () => {
  it("sends JSON with the base URL, query and headers and resolves with the parsed body", async () => {
    const { client, received } = await clientFor([json(200, { id: "m1" })], { headers: { authorization: "Bearer t" } });
    const result = await client.request<{ id: string }>({
      method: "POST",
      path: "/v1/messages",
      query: { thread: "t 1", skip: undefined },
      json: { text: "hi" },
    });
    expect(result).toEqual({ id: "m1" });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: "POST", url: "/api/v1/messages?thread=t+1", body: '{"text":"hi"}' });
    expect(received[0]?.headers).toMatchObject({ "content-type": "application/json", authorization: "Bearer t" });
  });

  it("waits out a short 429 Retry-After and succeeds on the retry", async () => {
    const { client, received } = await clientFor([json(429, {}, { "retry-after": "0" }), json(200, { ok: 1 })]);
    expect(await client.request({ method: "GET", path: "/x" })).toEqual({ ok: 1 });
    expect(received).toHaveLength(2);
  });

  it("fails at once with E_RATE_LIMITED and retryAfterMs when the wait is longer than maxRetryAfterMs", async () => {
    const { client, received } = await clientFor([json(429, {}, { "retry-after": "30" })]);
    const error = await failure(client.request({ method: "GET", path: "/x", operation: "read x" }));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.code).toBe("E_RATE_LIMITED");
    expect((error as RateLimitedError).retryAfterMs).toBe(30_000);
    expect(error.message).toBe("Acme rate limit (read x)");
    expect(received).toHaveLength(1);
  });

  it("retries a 5xx with backoff and gives up after `retries`, as a retryable E_PLATFORM", async () => {
    const { client, received } = await clientFor([json(503, { message: "down for maintenance" })]);
    const error = await failure(client.request({ method: "GET", path: "/x", operation: "read x" }));
    expect(error).toBeInstanceOf(PlatformHttpError);
    expect(error).toMatchObject({ code: "E_PLATFORM", retryable: true, status: 503 });
    expect(error.message).toBe("Acme refused to read x (HTTP 503): down for maintenance");
    expect(received).toHaveLength(3);
  });

  it("maps 401/403 to E_AUTH with the configured hint, 404 to E_MESSAGE_NOT_FOUND, 400 to E_INVALID_INPUT, none retried", async () => {
    for (const [status, code] of [
      [401, "E_AUTH"],
      [403, "E_AUTH"],
      [404, "E_MESSAGE_NOT_FOUND"],
      [400, "E_INVALID_INPUT"],
      [422, "E_INVALID_INPUT"],
    ] as const) {
      const { client, received } = await clientFor([json(status, { error: "nope" })], {
        hints: { E_AUTH: "Check channels.acme.token." },
      });
      const error = await failure(client.request({ method: "GET", path: "/x" }));
      expect(error.code).toBe(code);
      expect(error.retryable).toBe(false);
      if (code === "E_AUTH") expect(error.hint).toBe("Check channels.acme.token.");
      expect(received).toHaveLength(1);
      await close?.();
      close = undefined;
    }
  });

  it("lets the platform map its own refusals and unwrap its envelope, retrying an envelope error that is retryable", async () => {
    const { client, received } = await clientFor([
      json(200, { ok: false, error: "internal_error" }),
      json(200, { ok: false, error: "already_reacted" }),
    ]);
    const slackLike = new HttpClient({
      ...client.options,
      read: (answer) => {
        const body = answer.json as { ok: boolean; error?: string };
        if (body.ok) return body;
        throw new PlatformHttpError(
          body.error === "internal_error" ? "E_PLATFORM" : "E_INVALID_INPUT",
          `Acme said ${body.error}`,
          answer.status,
          body.error,
          { retryable: body.error === "internal_error" },
        );
      },
    });
    const error = await failure(slackLike.request({ method: "POST", path: "/reactions.add", idempotent: true }));
    expect(error).toMatchObject({ code: "E_INVALID_INPUT", platformCode: "already_reacted" });
    expect(received).toHaveLength(2);
  });

  it("does not resend a POST whose connection broke after it was sent, but retries it when it never left", async () => {
    const sent = await clientFor([reset]);
    const error = await failure(sent.client.request({ method: "POST", path: "/messages", json: { text: "hi" } }));
    expect(error).toMatchObject({ code: "E_PLATFORM", retryable: true });
    expect(error.message).toMatch(/^Acme unreachable \(POST \/messages\): /);
    expect(sent.received).toHaveLength(1);

    const port = await closedPort();
    const never = new HttpClient({ ...sent.client.options, baseUrl: `http://127.0.0.1:${port}`, retries: 1 });
    let attempts = 0;
    const counting = new HttpClient({
      ...never.options,
      prepare: () => {
        attempts++;
      },
    });
    const refused = await failure(counting.request({ method: "POST", path: "/messages", json: {} }));
    expect(refused.message).toContain("ECONNREFUSED");
    expect(attempts).toBe(2);
  });

  it("runs prepare before every attempt, so a signature can take a fresh nonce", async () => {
    const { client, received } = await clientFor([json(500, {}), json(200, {})]);
    let nonce = 0;
    const signing = new HttpClient({
      ...client.options,
      prepare: (request) => {
        request.headers.set("x-nonce", String(++nonce));
        request.url.searchParams.set("sig", `s${nonce}`);
      },
    });
    await signing.request({ method: "GET", path: "/x" });
    expect(received.map((r) => [r.headers["x-nonce"], r.url])).toEqual([
      ["1", "/api/x?sig=s1"],
      ["2", "/api/x?sig=s2"],
    ]);
  });

  it("refuses an unreadable 2xx without retrying it (the work may be done)", async () => {
    const { client, received } = await clientFor([text(200, "<html>proxy</html>")]);
    const error = await failure(client.request({ method: "POST", path: "/messages", idempotent: true }));
    expect(error).toMatchObject({ code: "E_PLATFORM", retryable: false });
    expect(error.message).toBe("Acme sent an unreadable answer (POST /messages)");
    expect(received).toHaveLength(1);
  });

  it("gives up after timeoutMs with a message that says so", async () => {
    const hang: Reply = () => {};
    const { client } = await clientFor([hang], { timeoutMs: 150, retries: 0 });
    const error = await failure(client.request({ method: "GET", path: "/slow" }));
    expect(error.message).toBe("Acme unreachable (GET /slow): no answer within 150 ms");
  });

  it("answers E_DISABLED when the instance stops during a call, and ends retry waits", async () => {
    const stop = new AbortController();
    const hang: Reply = () => {};
    const { client } = await clientFor([hang], { signal: stop.signal });
    const pending = client.request({ method: "GET", path: "/slow" });
    setImmediate(() => stop.abort());
    const error = await failure(pending);
    expect(error.code).toBe("E_DISABLED");
    expect(error.message).toBe("Acme is stopping");
  });

  it("removes the account's secrets from every error it throws, also from the path and the cause", async () => {
    const token = "123456:secret-token-value-that-is-long-enough";
    const port = await closedPort();
    const client = new HttpClient({
      label: "Acme",
      baseUrl: `http://127.0.0.1:${port}/bot${token}`,
      timeoutMs: 1_000,
      retries: 0,
      maxRetryAfterMs: 0,
      redactor: new Redactor([token]),
    });
    const error = await failure(client.request({ method: "GET", path: `/getMe?token=${token}` }));
    const everything = JSON.stringify([error.message, error.hint, error.details, error.stack, String(error.cause)]);
    expect(everything).not.toContain(token);
    expect(everything).not.toContain("secret-token-value");
    expect(error.hint).toContain("[redacted]");
  });

  it("tells whether the platform answered, for a degraded status", async () => {
    const seen: boolean[] = [];
    const port = await closedPort();
    const client = new HttpClient({
      label: "Acme",
      baseUrl: `http://127.0.0.1:${port}`,
      timeoutMs: 1_000,
      retries: 0,
      maxRetryAfterMs: 0,
      onReachability: (reachable) => seen.push(reachable),
    });
    await failure(client.request({ method: "GET", path: "/x" }));
    const up = await clientFor([json(200, {})], { onReachability: (reachable) => seen.push(reachable) });
    await up.client.request({ method: "GET", path: "/x" });
    expect(seen).toEqual([false, true]);
  });
});
