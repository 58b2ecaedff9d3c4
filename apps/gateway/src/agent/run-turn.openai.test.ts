import { buildMessageTool, ChorusError, type MessageToolInput } from "@chorus/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFakeOpenAI, type FakeOpenAI, fakeModelConfig, fullCapabilities } from "../testing/index.js";
import { runTurn } from "./run-turn.js";
import type { MessageToolBinding } from "./types.js";

function binding(
  execute: (input: MessageToolInput) => Promise<unknown> = async () => ({ ok: true }),
  options: Partial<Parameters<typeof buildMessageTool>[0]> = {},
): MessageToolBinding {
  return { definition: buildMessageTool({ capabilities: fullCapabilities(), channel: "Test", ...options }), execute };
}

/** The tool messages of a recorded request, their content parsed. */
function toolResults(messages: { role: string; content?: unknown; tool_call_id?: string }[]) {
  return messages
    .filter((message) => message.role === "tool")
    .map((message) => ({ id: message.tool_call_id, content: JSON.parse(String(message.content)) as unknown }));
}

let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await createFakeOpenAI({ apiKey: "sk-test" });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.reset();
});

describe.each([false, true])("runTurn against an OpenAI-compatible server (stream: %s)", (stream) => {
  const model = () => fakeModelConfig(fake, { apiKey: "sk-test", stream, model: "gpt-x" });

  it("returns the model's text with usage", async () => {
    fake.script({ text: "Hello from the model" });
    const result = await runTurn({ model: model(), system: "sys", history: [], user: "hi", maxSteps: 4 });
    expect(result).toMatchObject({ text: "Hello from the model", steps: 1, finishReason: "stop", toolCalls: [] });
    expect(result.usage?.inputTokens).toBeGreaterThan(0);
    expect(result.usage?.outputTokens).toBe(5);
    const [request] = fake.requests;
    expect(request?.model).toBe("gpt-x");
    expect(request?.stream === true).toBe(stream);
    const recorded = fake.server.requestsTo("POST", "/v1/chat/completions")[0];
    expect(recorded?.headers.authorization).toBe("Bearer sk-test");
  });

  it("sends the system prompt, then the history, then the user message, in order", async () => {
    await runTurn({
      model: model(),
      system: "You are Chorus.",
      history: [
        { role: "user", content: "one" },
        { role: "assistant", content: "two" },
      ],
      user: "three",
      maxSteps: 4,
    });
    expect(fake.requests[0]?.messages).toEqual([
      { role: "system", content: "You are Chorus." },
      { role: "user", content: "one" },
      { role: "assistant", content: "two" },
      { role: "user", content: "three" },
    ]);
  });

  it("runs a tool call round trip: the second request carries the tool result", async () => {
    const calls: MessageToolInput[] = [];
    fake.script(
      { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "thumbsup" }, id: "call_react" }] },
      { text: "Done." },
    );
    const result = await runTurn({
      model: model(),
      system: "sys",
      history: [],
      user: "hi",
      tool: binding(async (input) => {
        calls.push(input);
        return { ok: true, action: "react", op: "add", emoji: "👍" };
      }),
      maxSteps: 4,
    });
    expect(calls).toEqual([{ action: "react", emoji: "thumbsup" }]);
    expect(result).toMatchObject({ text: "Done.", steps: 2, finishReason: "stop" });
    expect(result.toolCalls).toEqual([
      {
        id: "call_react",
        name: "message",
        input: { action: "react", emoji: "thumbsup" },
        output: { ok: true, action: "react", op: "add", emoji: "👍" },
      },
    ]);
    const second = fake.requests[1]?.messages ?? [];
    expect(second.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(second[2]?.tool_calls?.[0]).toMatchObject({ id: "call_react", function: { name: "message" } });
    expect(toolResults(second)).toEqual([
      { id: "call_react", content: { ok: true, action: "react", op: "add", emoji: "👍" } },
    ]);
  });

  it("gives a ChorusError from execute back to the model as { ok: false, error }", async () => {
    fake.script({ toolCalls: [{ name: "message", arguments: { action: "react", emoji: "🦄" } }] }, { text: "Sorry." });
    const result = await runTurn({
      model: model(),
      system: "sys",
      history: [],
      user: "hi",
      tool: binding(async () => {
        throw new ChorusError("E_UNSUPPORTED_EMOJI", "🦄 is not allowed on Test", { hint: "Try one of: 👍 ❤️" });
      }),
      maxSteps: 4,
    });
    expect(result.text).toBe("Sorry.");
    const [sent] = toolResults(fake.requests[1]?.messages ?? []);
    expect(sent?.content).toMatchObject({
      ok: false,
      error: { code: "E_UNSUPPORTED_EMOJI", message: "🦄 is not allowed on Test", hint: "Try one of: 👍 ❤️" },
    });
    expect(JSON.stringify(sent?.content)).not.toContain("    at ");
  });

  it("validates the call with the channel's definition before execute runs", async () => {
    let executed = false;
    fake.script(
      { toolCalls: [{ name: "message", arguments: { action: "reactions", messageId: "m1" } }] },
      { text: "ok" },
    );
    await runTurn({
      model: model(),
      system: "sys",
      history: [],
      user: "hi",
      tool: {
        definition: buildMessageTool({ capabilities: fullCapabilities({ list: false }), channel: "Test" }),
        execute: async () => {
          executed = true;
          return { ok: true };
        },
      },
      maxSteps: 4,
    });
    expect(executed).toBe(false);
    const [sent] = toolResults(fake.requests[1]?.messages ?? []);
    expect(sent?.content).toMatchObject({ ok: false, error: { code: "E_UNSUPPORTED" } });
  });

  it("answers a call to an unknown tool with an error result and goes on", async () => {
    fake.script({ toolCalls: [{ name: "browse", arguments: { url: "x" }, id: "call_unknown" }] }, { text: "Fine." });
    const result = await runTurn({
      model: model(),
      system: "s",
      history: [],
      user: "hi",
      tool: binding(),
      maxSteps: 4,
    });
    expect(result.text).toBe("Fine.");
    expect(result.toolCalls).toEqual([
      {
        id: "call_unknown",
        name: "browse",
        input: { url: "x" },
        output: { ok: false, error: expect.objectContaining({ code: "E_INVALID_INPUT" }) },
      },
    ]);
    const toolMessage = fake.requests[1]?.messages.find((message) => message.role === "tool");
    expect(toolMessage).toMatchObject({ tool_call_id: "call_unknown", content: expect.stringContaining("browse") });
  });

  it("stops after maxSteps even when the model keeps calling the tool", async () => {
    const react = { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "👍" } }] };
    fake.script(react, react, react, { text: "never reached" });
    const result = await runTurn({
      model: model(),
      system: "s",
      history: [],
      user: "hi",
      tool: binding(),
      maxSteps: 2,
    });
    expect(fake.requests).toHaveLength(2);
    expect(result).toMatchObject({ steps: 2, text: "", finishReason: "tool-calls" });
    expect(result.toolCalls).toHaveLength(2);
    expect(fake.pending).toBe(2);
  });
});

describe("the tool schema the model receives", () => {
  const model = () => fakeModelConfig(fake, { apiKey: "sk-test" });

  it("is exactly the definition's JSON schema and description", async () => {
    const tool = binding();
    await runTurn({ model: model(), system: "s", history: [], user: "hi", tool, maxSteps: 2 });
    const tools = fake.requests[0]?.tools ?? [];
    expect(tools).toHaveLength(1);
    expect(tools[0]?.function.name).toBe("message");
    expect(tools[0]?.function.description).toBe(tool.definition.description);
    expect(tools[0]?.function.parameters).toEqual(tool.definition.jsonSchema);
  });

  it("leaves out what the channel cannot honour", async () => {
    const addOnly = buildMessageTool({
      capabilities: fullCapabilities({ addOnly: true, clearAll: false, list: false }),
      channel: "Test",
    });
    await runTurn({
      model: model(),
      system: "s",
      history: [],
      user: "hi",
      tool: { definition: addOnly, execute: async () => ({}) },
      maxSteps: 2,
    });
    const parameters = fake.requests[0]?.tools?.[0]?.function.parameters as {
      properties: Record<string, { enum?: string[] }>;
    };
    expect(parameters).toEqual(addOnly.jsonSchema);
    expect(parameters.properties.action?.enum).toEqual(["send", "react"]);
    expect(Object.keys(parameters.properties)).not.toContain("remove");
    expect(Object.keys(parameters.properties)).not.toContain("clearAll");
  });

  it("offers no react action when reactions are off", async () => {
    const off = binding(undefined, { reactionLevel: "off" });
    await runTurn({ model: model(), system: "s", history: [], user: "hi", tool: off, maxSteps: 2 });
    const parameters = fake.requests[0]?.tools?.[0]?.function.parameters as {
      properties: Record<string, { enum?: string[] }>;
    };
    expect(parameters.properties.action?.enum).toEqual(["send"]);
    expect(Object.keys(parameters.properties)).not.toContain("emoji");
  });

  it("declares no tools when the turn has none, and sends the temperature when set", async () => {
    await runTurn({
      model: fakeModelConfig(fake, { apiKey: "sk-test", temperature: 0.3 }),
      system: "s",
      history: [],
      user: "hi",
      maxSteps: 2,
    });
    expect(fake.requests[0]?.tools).toBeUndefined();
    expect(fake.requests[0]?.temperature).toBe(0.3);
  });

  it("accepts a baseURL with a trailing slash", async () => {
    fake.script({ text: "slash" });
    const result = await runTurn({
      model: fakeModelConfig(fake, { apiKey: "sk-test", baseURL: `${fake.url}/` }),
      system: "s",
      history: [],
      user: "hi",
      maxSteps: 2,
    });
    expect(result.text).toBe("slash");
  });
});
