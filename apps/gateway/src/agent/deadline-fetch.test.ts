import { createFakeServer, type FakeServer } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchWithTimeout, type ModelFetch } from "./deadline-fetch.js";

let server: FakeServer;

beforeAll(async () => {
  server = createFakeServer();
  server.route("GET", "/answer", () => ({ json: { ok: true } }));
  server.route("GET", "/empty", () => ({ status: 204 }));
  server.route("GET", "/stall", () => ({
    status: 200,
    headers: { "content-type": "application/json" },
    stream: () => {},
  }));
  await server.start();
});
afterAll(async () => {
  await server.close();
});

/** The global fetch, remembering the signal each request was given. */
function recording(): { fetch: ModelFetch; signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  const fetch: ModelFetch = (input, init) => {
    if (init?.signal) signals.push(init.signal);
    return globalThis.fetch(input, init);
  };
  return { fetch, signals };
}

/** Resolves after `ms`: only for checking that a deadline did NOT fire, never to wait for I/O. */
const pastDeadline = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("fetchWithTimeout", () => {
  it("aborts a body that stalls after the headers with a TimeoutError at the deadline", async () => {
    const response = await fetchWithTimeout(150)(`${server.url}/stall`);
    expect(response.status).toBe(200);
    const started = Date.now();
    const error = await response.text().catch((e: unknown) => e);
    expect((error as Error).name).toBe("TimeoutError");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("ends the deadline once the body is read, and when there is none: the request is never aborted later", async () => {
    const { fetch, signals } = recording();
    const timed = fetchWithTimeout(500, fetch);
    const answer = await timed(`${server.url}/answer`);
    expect(await answer.json()).toEqual({ ok: true });
    expect((await timed(`${server.url}/empty`)).status).toBe(204);
    await pastDeadline(700);
    expect(signals.map((s) => s.aborted)).toEqual([false, false]);
  });

  it("keeps the answer's status, headers and URL", async () => {
    const answer = await fetchWithTimeout(5_000)(`${server.url}/answer`);
    expect([answer.status, answer.ok, answer.url]).toEqual([200, true, `${server.url}/answer`]);
    expect(answer.headers.get("content-type")).toContain("application/json");
    await answer.body?.cancel();
  });

  it("the caller's signal still aborts it earlier, with the caller's reason", async () => {
    const caller = new AbortController();
    const response = await fetchWithTimeout(60_000)(`${server.url}/stall`, { signal: caller.signal });
    const reading = response.text().catch((e: unknown) => e);
    caller.abort(new Error("the turn was cancelled"));
    expect(((await reading) as Error).message).toBe("the turn was cancelled");
    const already = await fetchWithTimeout(60_000)(`${server.url}/answer`, { signal: caller.signal }).catch(
      (e: unknown) => e,
    );
    expect((already as Error).message).toBe("the turn was cancelled");
  });
});
