import { isChorusError } from "@chorus/core";
import { faults } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createFakeOpenAI,
  type FakeOpenAI,
  fakeModelConfig,
  type OpenAICompatibleModelConfig,
} from "../testing/index.js";
import { AgentError } from "./errors.js";
import { runTurn } from "./run-turn.js";

let fake: FakeOpenAI;

beforeEach(async () => {
  fake = await createFakeOpenAI();
});

afterEach(async () => {
  await fake.close();
});

/** Runs a one-message turn and returns the AgentError it failed with. */
async function failure(model: OpenAICompatibleModelConfig, signal?: AbortSignal): Promise<AgentError> {
  const error = await runTurn({
    model,
    system: "s",
    history: [],
    user: "hi",
    maxSteps: 2,
    ...(signal ? { signal } : {}),
  }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AgentError);
  const agentError = error as AgentError;
  expect(isChorusError(agentError)).toBe(true);
  expect(agentError.message).not.toContain("\n");
  return agentError;
}

describe.each([false, true])("model server failures (stream: %s)", (stream) => {
  const model = (overrides: Partial<OpenAICompatibleModelConfig> = {}) =>
    fakeModelConfig(fake, { model: "gpt-x", stream, ...overrides });

  it("turns HTTP 500 into a one-line E_PLATFORM naming the model and the server", async () => {
    fake.script({ status: 500 });
    const error = await failure(model());
    expect(error.code).toBe("E_PLATFORM");
    expect(error.message).toBe(
      `The model server answered HTTP 500 (model "gpt-x" at ${fake.url}): The server had an error while processing your request.`,
    );
    expect(error.retryable).toBe(true);
    expect(error.toJSON()).not.toHaveProperty("stack");
  });

  it("turns HTTP 429 into E_RATE_LIMITED with the server's Retry-After", async () => {
    fake.script({ status: 429, headers: { "retry-after": "7" } });
    const error = await failure(model());
    expect(error.code).toBe("E_RATE_LIMITED");
    expect(error.message).toContain("HTTP 429");
    expect(error.details).toMatchObject({ status: 429, retryAfterMs: 7000 });
  });

  it("turns a wrong API key (401) into E_AUTH with a hint", async () => {
    fake.script({ status: 401 });
    const error = await failure(model());
    expect(error.code).toBe("E_AUTH");
    expect(error.retryable).toBe(false);
    expect(error.hint).toContain("apiKey");
  });

  it("turns a garbage body into a clean error", async () => {
    fake.script({ raw: stream ? "data: {garbage\n\n" : "<html>not json" });
    const error = await failure(model());
    expect(error.code).toBe("E_PLATFORM");
    expect(error.message).toBe(
      `The model server sent a reply that is not a valid chat completion (model "gpt-x" at ${fake.url})`,
    );
  });

  it("gives up on a hanging server after timeoutMs", async () => {
    fake.inject(faults.hang({}));
    const started = Date.now();
    const error = await failure(model({ timeoutMs: 200 }));
    expect(error.message).toBe(`The model server did not answer within 200ms (model "gpt-x" at ${fake.url})`);
    expect(error.retryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(fake.requests).toHaveLength(1);
  });

  it("retries a 500 and succeeds with maxRetries 1", async () => {
    fake.script({ status: 500, headers: { "retry-after-ms": "0" } }, { text: "second time lucky" });
    const result = await runTurn({
      model: model({ maxRetries: 1 }),
      system: "s",
      history: [],
      user: "hi",
      maxSteps: 2,
    });
    expect(result.text).toBe("second time lucky");
    expect(fake.requests).toHaveLength(2);
  });

  it("says how many attempts it made when the retries run out", async () => {
    fake.script(
      { status: 503, headers: { "retry-after-ms": "0" } },
      { status: 503, headers: { "retry-after-ms": "0" } },
    );
    const error = await failure(model({ maxRetries: 1 }));
    expect(error.message).toMatch(/^The model server answered HTTP 503 \(model "gpt-x" at .+\) after 2 attempts: /);
    expect(error.details).toMatchObject({ attempts: 2, status: 503 });
    expect(fake.requests).toHaveLength(2);
  });

  it("does not retry with maxRetries 0", async () => {
    fake.script({ status: 500, headers: { "retry-after-ms": "0" } }, { text: "unused" });
    await failure(model({ maxRetries: 0 }));
    expect(fake.requests).toHaveLength(1);
    expect(fake.pending).toBe(1);
  });

  it("fails as cancelled when the caller aborts", async () => {
    fake.inject(faults.hang({}));
    const controller = new AbortController();
    const pending = failure(model({ timeoutMs: 10_000 }), controller.signal);
    await fake.waitForRequests(1);
    controller.abort();
    const error = await pending;
    expect(error.message).toBe(`The turn was cancelled before model "gpt-x" at ${fake.url} answered`);
    expect(error.retryable).toBe(false);
  });
});

describe("a streamed reply cut short", () => {
  it("fails cleanly when the stream ends without a finish reason", async () => {
    const chunk = { id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: "Hel" } }] };
    fake.script({ raw: `data: ${JSON.stringify(chunk)}\n\n` });
    const error = await failure(fakeModelConfig(fake, { model: "gpt-x", stream: true }));
    expect(error.message).toBe(
      `The model server sent a reply that is not a valid chat completion (model "gpt-x" at ${fake.url})`,
    );
  });
});

describe("an unreachable model server", () => {
  it("fails with Cannot reach, naming the base URL", async () => {
    const gone = await createFakeOpenAI();
    const url = gone.url;
    await gone.close();
    const error = await failure(fakeModelConfig({ url }, { model: "gpt-x", maxRetries: 0 }));
    expect(error.code).toBe("E_PLATFORM");
    expect(error.message).toMatch(
      /^Cannot reach the model server \(model "gpt-x" at http:\/\/127\.0\.0\.1:\d+\/v1\): /,
    );
    expect(error.hint).toContain("baseURL");
  });
});
