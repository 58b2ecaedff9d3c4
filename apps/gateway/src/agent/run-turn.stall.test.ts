import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelConfig } from "../config/index.js";
import {
  createFakeAnthropic,
  createFakeGoogle,
  createFakeOllama,
  createFakeOpenAI,
  type FakeProviderReply,
  forceGc,
} from "../testing/index.js";
import { AgentError } from "./errors.js";
import { runTurn } from "./run-turn.js";

/** The model call's deadline in these tests. */
const TIMEOUT_MS = 400;
/** Long past the deadline: a turn still waiting then is stuck. */
const STUCK_AFTER_MS = 8_000;

interface Subject {
  script(...replies: FakeProviderReply[]): void;
  model(stream: boolean): ModelConfig;
  close(): Promise<void>;
}

const common = { timeoutMs: TIMEOUT_MS, maxRetries: 0, model: "fake-model" } as const;
const subjects: Record<string, Subject> = {};
const gc = forceGc();

beforeAll(async () => {
  const compatible = await createFakeOpenAI({ apiKey: "sk-compatible" });
  const openai = await createFakeOpenAI({ apiKey: "sk-openai" });
  const anthropic = await createFakeAnthropic({ apiKey: "sk-ant" });
  const google = await createFakeGoogle({ apiKey: "g-key-123" });
  const ollama = await createFakeOllama();
  const key = { "openai-compatible": "sk-compatible", openai: "sk-openai", anthropic: "sk-ant", google: "g-key-123" };
  const of = (
    fake: { url: string; script(...r: never[]): void; close(): Promise<void> },
    provider: string,
  ): Subject => ({
    script: (...replies) => fake.script(...(replies as never[])),
    model: (stream) =>
      ({
        provider,
        baseURL: fake.url,
        ...(provider in key ? { apiKey: key[provider as keyof typeof key] } : {}),
        ...(provider === "openai-compatible" ? { name: "fake" } : {}),
        stream,
        ...common,
      }) as ModelConfig,
    close: () => fake.close(),
  });
  subjects["openai-compatible"] = of(compatible, "openai-compatible");
  subjects.openai = of(openai, "openai");
  subjects.anthropic = of(anthropic, "anthropic");
  subjects.google = of(google, "google");
  subjects.ollama = of(ollama, "ollama");
});
afterAll(async () => {
  await Promise.all(Object.values(subjects).map((s) => s.close()));
});

/** The turn's outcome, or "stuck" when it has none long after its deadline. */
async function settle(turn: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise((resolve) => {
    timer = setTimeout(() => resolve("stuck"), STUCK_AFTER_MS);
  });
  try {
    return await Promise.race([
      turn.then(
        (result) => ({ result }),
        (error: unknown) => error,
      ),
      stuck,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe.each(["openai-compatible", "openai", "anthropic", "google", "ollama"])(
  "a %s model server that stalls after its headers",
  (name) => {
    it.each([true, false])(
      "fails the turn at the model's timeout, garbage collection or not, and the next turn is answered (stream: %s)",
      async (stream) => {
        const subject = subjects[name] as Subject;
        subject.script({ stall: true }, { text: "back again" });
        // The turn's own signal, as the turn queue gives one: the deadline must hold beside it.
        const signal = new AbortController().signal;
        const started = Date.now();
        const collecting = setInterval(gc, 20);
        let outcome: unknown;
        try {
          outcome = await settle(
            runTurn({ model: subject.model(stream), system: "s", history: [], user: "hi", maxSteps: 2, signal }),
          );
        } finally {
          clearInterval(collecting);
        }
        expect(outcome).toBeInstanceOf(AgentError);
        expect((outcome as AgentError).message).toMatch(`did not answer within ${TIMEOUT_MS}ms`);
        expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
        const next = await runTurn({
          model: subject.model(stream),
          system: "s",
          history: [],
          user: "again",
          maxSteps: 2,
        });
        expect(next.text).toBe("back again");
      },
    );
  },
);
