import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ModelConfig } from "../config/index.js";
import { createFakeOpenAI, type FakeOpenAI, fakeModelConfig, leakedForms } from "../testing/index.js";
import { AgentError } from "./errors.js";
import { ModelFailures } from "./failures.js";
import { runTurn } from "./run-turn.js";

/** An API key with characters that differ in every spelling. */
const KEY = "sk-canary/Key+with=chars-0123456789";

let fake: FakeOpenAI;

beforeEach(async () => {
  fake = await createFakeOpenAI({ apiKey: KEY });
});
afterEach(async () => {
  await fake.close();
});

/** A model server whose error body echoes the key it was sent, raw and URL-encoded. */
function echoKey(status: number): void {
  const message = `Key ${KEY} (as sent: ${encodeURIComponent(KEY)}) is not allowed here`;
  fake.script({ status, body: { error: { message, type: "server_error", param: KEY } } });
}

/** Everything the error carries, as a log's error serializer would write it: message, hint, details, causes and their fields. */
function everything(error: unknown): string {
  const seen = new Set<unknown>();
  return JSON.stringify(error, (_key, value: unknown) => {
    if (value instanceof Error) {
      if (seen.has(value)) return undefined;
      seen.add(value);
      return { ...value, name: value.name, message: value.message, stack: value.stack, cause: value.cause };
    }
    return value;
  });
}

async function failed(model: ModelConfig): Promise<AgentError> {
  const error = await runTurn({ model, system: "s", history: [], user: "hi", maxSteps: 2 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AgentError);
  return error as AgentError;
}

describe.each([false, true])("a model server that echoes the API key in its error (stream: %s)", (stream) => {
  it("the AgentError — message, details, causes and the failure /status keeps — carries no spelling of the key", async () => {
    echoKey(500);
    const error = await failed(fakeModelConfig(fake, { apiKey: KEY, stream }));
    expect(error.message).toMatch(
      /^The model server answered HTTP 500 \(model .+\): Key \[redacted\] \(as sent: \[redacted\]\)/,
    );
    expect(error.code).toBe("E_PLATFORM");
    expect(error.retryable).toBe(true);
    expect(leakedForms(everything(error), KEY)).toEqual([]);
    const failures = new ModelFailures();
    failures.record("main", error);
    expect(leakedForms(JSON.stringify(failures.last("main")), KEY)).toEqual([]);
  });

  it("a key the provider reads from its environment variable (OPENAI_API_KEY) is taken out too", async () => {
    const before = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = KEY;
    try {
      echoKey(401);
      const model: ModelConfig = {
        provider: "openai",
        baseURL: fake.url,
        model: "gpt-x",
        stream,
        timeoutMs: 5000,
        maxRetries: 0,
      };
      const error = await failed(model);
      expect(error.code).toBe("E_AUTH");
      expect(fake.server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(leakedForms(everything(error), KEY)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = before;
    }
  });
});
