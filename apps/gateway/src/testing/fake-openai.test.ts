import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFakeOpenAI, type FakeOpenAI } from "./fake-openai.js";

let fake: FakeOpenAI;

beforeEach(async () => {
  fake = await createFakeOpenAI();
});

afterEach(async () => {
  await fake.close();
});

const chat = (body: object, headers: Record<string, string> = {}) =>
  fetch(`${fake.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

interface Completion {
  object: string;
  model: string;
  choices: {
    index: number;
    message: { role: string; content: string | null; tool_calls?: unknown[] };
    finish_reason: string;
  }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

interface ToolDelta {
  index: number;
  id?: string;
  function: { name?: string; arguments: string };
}

interface Chunk {
  object: string;
  choices: { delta: { content?: string; tool_calls?: ToolDelta[] }; finish_reason: string | null }[];
  usage?: unknown;
}

interface ErrorBody {
  error: { message: string; code?: string | null };
}

const hello = { model: "fake-model", messages: [{ role: "user", content: "hello" }] };

/** The JSON payloads of an SSE body, `[DONE]` kept as a string. */
function sseData(body: string): unknown[] {
  return body
    .split("\n\n")
    .filter((event) => event.startsWith("data: "))
    .map((event) => event.slice("data: ".length))
    .map((data) => (data === "[DONE]" ? data : JSON.parse(data)));
}

describe("createFakeOpenAI", () => {
  it("serves the /v1 base URL on 127.0.0.1", () => {
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it("answers a chat.completion with the scripted text, then the default ok", async () => {
    fake.script({ text: "first" });
    const first = (await (await chat(hello)).json()) as Completion;
    expect(first.object).toBe("chat.completion");
    expect(first.model).toBe("fake-model");
    expect(first.choices[0]).toMatchObject({
      index: 0,
      message: { role: "assistant", content: "first" },
      finish_reason: "stop",
    });
    expect(first.usage.total_tokens).toBe(first.usage.prompt_tokens + first.usage.completion_tokens);
    const second = (await (await chat(hello)).json()) as Completion;
    expect(second.choices[0]?.message.content).toBe("ok");
    expect(fake.pending).toBe(0);
  });

  it("answers tool calls with JSON-encoded arguments and finish_reason tool_calls", async () => {
    fake.script({ toolCalls: [{ name: "message", arguments: { action: "react", emoji: "👍" } }] });
    const body = (await (await chat(hello)).json()) as Completion;
    expect(body.choices[0]?.finish_reason).toBe("tool_calls");
    expect(body.choices[0]?.message.content).toBeNull();
    expect(body.choices[0]?.message.tool_calls).toEqual([
      { id: "call_1_0", type: "function", function: { name: "message", arguments: '{"action":"react","emoji":"👍"}' } },
    ]);
  });

  it("streams chat.completion.chunk events ending with data: [DONE]", async () => {
    fake.script({ text: "one two three" });
    const response = await chat({ ...hello, stream: true, stream_options: { include_usage: true } });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = sseData(await response.text());
    expect(events.at(-1)).toBe("[DONE]");
    const chunks = events.slice(0, -1) as Chunk[];
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk")).toBe(true);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe("one two three");
    expect(chunks.filter((chunk) => chunk.choices[0]?.delta.content).length).toBe(3);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });
  });

  it("streams tool calls as a head delta and argument pieces", async () => {
    fake.script({ toolCalls: [{ name: "message", arguments: { action: "send", text: "hi" }, id: "call_x" }] });
    const events = sseData(await (await chat({ ...hello, stream: true })).text());
    const chunks = events.slice(0, -1) as Chunk[];
    const deltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(deltas[0]).toEqual({
      index: 0,
      id: "call_x",
      type: "function",
      function: { name: "message", arguments: "" },
    });
    expect(deltas.length).toBeGreaterThan(2);
    const args = deltas.map((delta) => delta.function.arguments).join("");
    expect(JSON.parse(args)).toEqual({ action: "send", text: "hi" });
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("tool_calls");
  });

  it("answers scripted statuses with an OpenAI error body and headers", async () => {
    fake.script(
      { status: 429, headers: { "retry-after": "3" } },
      { status: 503, body: { error: { message: "down" } } },
    );
    const limited = await chat(hello);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3");
    expect(((await limited.json()) as ErrorBody).error.code).toBe("rate_limit_exceeded");
    const down = await chat(hello);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ error: { message: "down" } });
  });

  it("answers a raw reply byte for byte", async () => {
    fake.script({ raw: "{not json" });
    const response = await chat(hello);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("{not json");
  });

  it("rejects bodies the real API rejects, without consuming the script", async () => {
    fake.script({ text: "kept" });
    const noModel = await chat({ messages: [{ role: "user", content: "x" }] });
    expect(noModel.status).toBe(400);
    const orphan = await chat({ model: "m", messages: [{ role: "tool", tool_call_id: "nope", content: "{}" }] });
    expect(orphan.status).toBe(400);
    expect(((await orphan.json()) as ErrorBody).error.message).toContain("tool_call_id");
    expect(fake.pending).toBe(1);
  });

  it("records the parsed request bodies in order", async () => {
    await chat(hello);
    await chat({ ...hello, tools: [{ type: "function", function: { name: "message", parameters: {} } }] });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]?.messages).toEqual(hello.messages);
    expect(fake.requests[1]?.tools?.[0]?.function.name).toBe("message");
    await expect(fake.waitForRequests(2)).resolves.toHaveLength(2);
  });

  it("lists its models", async () => {
    const body = (await (await fetch(`${fake.url}/models`)).json()) as unknown;
    expect(body).toMatchObject({ object: "list", data: [{ id: "fake-model", object: "model" }] });
  });

  it("reset forgets the script and the requests", async () => {
    fake.script({ text: "gone" });
    await chat(hello);
    fake.script({ text: "also gone" });
    fake.reset();
    expect(fake.pending).toBe(0);
    expect(fake.requests).toEqual([]);
  });
});

describe("createFakeOpenAI with an apiKey", () => {
  it("answers 401 without the right bearer token and serves it with", async () => {
    const secured = await createFakeOpenAI({ apiKey: "sk-test", models: ["a", "b"] });
    try {
      const url = `${secured.url}/models`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
      const ok = await fetch(url, { headers: { authorization: "Bearer sk-test" } });
      expect(((await ok.json()) as { data: { id: string }[] }).data.map((model) => model.id)).toEqual(["a", "b"]);
    } finally {
      await secured.close();
    }
  });
});
