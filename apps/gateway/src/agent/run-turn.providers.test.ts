import { buildMessageTool, type MessageToolInput } from "@chorus/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelConfig } from "../config/index.js";
import {
  createFakeAnthropic,
  createFakeGoogle,
  createFakeOllama,
  createFakeOpenAI,
  type FakeProvider,
  type FakeProviderReply,
  fullCapabilities,
} from "../testing/index.js";
import { AgentError } from "./errors.js";
import { runTurn } from "./run-turn.js";

/** One provider under test: its fake, the model config pointing at it, and how it carries the key. */
interface Subject {
  fake: Pick<FakeProvider, "url" | "script" | "requests" | "server" | "close">;
  model(stream: boolean): ModelConfig;
  /** The request header that carries the API key, and its value. */
  auth?: [string, string];
  /** The tool result as the provider's second request carries it. */
  toolResult(request: Record<string, unknown>): unknown;
}

const common = { timeoutMs: 5000, maxRetries: 0, model: "fake-model" } as const;

async function subjects(): Promise<Record<string, Subject>> {
  const openai = await createFakeOpenAI({ apiKey: "sk-openai" });
  const anthropic = await createFakeAnthropic({ apiKey: "sk-ant" });
  const google = await createFakeGoogle({ apiKey: "g-key" });
  const ollama = await createFakeOllama();
  const openaiFake = {
    url: openai.url,
    server: openai.server,
    close: () => openai.close(),
    script: (...replies: FakeProviderReply[]) => openai.script(...(replies as Parameters<typeof openai.script>)),
    get requests() {
      return openai.requests as unknown as Record<string, unknown>[];
    },
  };
  return {
    openai: {
      fake: openaiFake,
      model: (stream) => ({ provider: "openai", baseURL: openai.url, apiKey: "sk-openai", stream, ...common }),
      auth: ["authorization", "Bearer sk-openai"],
      toolResult: (r) => (r.messages as { role: string; content: string }[]).find((m) => m.role === "tool")?.content,
    },
    anthropic: {
      fake: anthropic,
      model: (stream) => ({ provider: "anthropic", baseURL: anthropic.url, apiKey: "sk-ant", stream, ...common }),
      auth: ["x-api-key", "sk-ant"],
      toolResult: (r) =>
        (r.messages as { content: { type: string; content?: unknown }[] | string }[])
          .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
          .find((part) => part.type === "tool_result")?.content,
    },
    google: {
      fake: google,
      model: (stream) => ({ provider: "google", baseURL: google.url, apiKey: "g-key", stream, ...common }),
      auth: ["x-goog-api-key", "g-key"],
      toolResult: (r) =>
        (r.contents as { parts: { functionResponse?: { response: unknown } }[] }[])
          .flatMap((c) => c.parts)
          .find((part) => part.functionResponse)?.functionResponse?.response,
    },
    ollama: {
      fake: ollama,
      model: (stream) => ({ provider: "ollama", baseURL: ollama.url, stream, ...common }),
      toolResult: (r) => (r.messages as { role: string; content: string }[]).find((m) => m.role === "tool")?.content,
    },
  };
}

let all: Record<string, Subject>;
beforeAll(async () => {
  all = await subjects();
});
afterAll(async () => {
  await Promise.all(Object.values(all).map((s) => s.fake.close()));
});

describe.each(["openai", "anthropic", "google", "ollama"])("the %s provider against a fake of its wire API", (name) => {
  const subject = () => all[name] as Subject;

  it.each([false, true])("text, and a message tool call with its result sent back (stream: %s)", async (stream) => {
    const { fake, model, auth, toolResult } = subject();
    const before = fake.requests.length;
    fake.script(
      { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "👍" } }] },
      { text: "Done, reacted." },
    );
    const calls: MessageToolInput[] = [];
    const result = await runTurn({
      model: model(stream),
      system: "You are Chorus.",
      history: [
        { role: "user", content: "earlier" },
        { role: "assistant", content: "noted" },
      ],
      user: "react to this",
      maxSteps: 4,
      tool: {
        definition: buildMessageTool({ capabilities: fullCapabilities(), channel: "Test" }),
        execute: async (input) => {
          calls.push(input);
          return { ok: true, action: "react", op: "add", emoji: "👍" };
        },
      },
    });
    expect(result.text).toBe("Done, reacted.");
    expect(result.steps).toBe(2);
    expect(calls).toEqual([{ action: "react", emoji: "👍" }]);
    expect(result.toolCalls).toMatchObject([{ name: "message", input: { action: "react", emoji: "👍" } }]);
    const requests = fake.requests.slice(before);
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[0])).toContain("You are Chorus.");
    expect(JSON.stringify(requests[0])).toContain("react to this");
    expect(JSON.stringify(toolResult(requests[1] as Record<string, unknown>))).toContain("add");
    if (auth) {
      const recorded = fake.server.requests.at(-1);
      expect(recorded?.headers[auth[0]]).toBe(auth[1]);
    }
  });

  it("an HTTP 500 becomes an AgentError naming the model, never a crash", async () => {
    const { fake, model } = subject();
    fake.script({ status: 500 });
    const error = await runTurn({ model: model(false), system: "s", history: [], user: "hi", maxSteps: 2 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe("E_PLATFORM");
    expect((error as AgentError).message).toContain('model "fake-model"');
  });
});
