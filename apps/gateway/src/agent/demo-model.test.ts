import { buildMessageTool, type ChannelCapabilities, ChorusError, type MessageToolInput } from "@chorus/core";
import { describe, expect, it } from "vitest";
import type { ModelConfig } from "../config/index.js";
import { DemoLanguageModel } from "./demo-model.js";
import { planDemoStep } from "./demo-reply.js";
import { readModelStream } from "./model-step.js";
import { runSteps, runTurn } from "./run-turn.js";
import { turnPrompt } from "./turn-prompt.js";
import type { LanguageModelV3Message, LanguageModelV3StreamPart } from "./types.js";

const capabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"],
  reactions: { clearAll: true, singleSlot: false, tapbackOnly: false, addOnly: false, list: false },
  typing: false,
  inboundReactions: false,
  replies: true,
  threads: false,
  maxTextLength: 4000,
};
const demo: ModelConfig = { provider: "demo" };
const LABELLED =
  'Demo agent (offline): you said "hello there". Configure a model in chorus.json to talk to a real one.';

function binding(execute: (input: MessageToolInput) => Promise<unknown>, reactionLevel: "minimal" | "off" = "minimal") {
  const definition = buildMessageTool({ capabilities, reactionLevel, channel: "Webchat" });
  return { definition, execute };
}

describe("the demo model through runTurn", () => {
  it("reacts 👍 to the current message first, then answers with a labelled echo", async () => {
    const calls: MessageToolInput[] = [];
    const result = await runTurn({
      model: demo,
      system: "You are Chorus.",
      history: [],
      user: "hello there",
      tool: binding(async (input) => {
        calls.push(input);
        return { ok: true, action: "react", op: "add", emoji: "👍" };
      }),
      maxSteps: 8,
    });
    expect(calls).toEqual([{ action: "react", emoji: "👍" }]);
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]).toMatchObject({
      name: "message",
      input: { action: "react", emoji: "👍" },
      output: { ok: true, op: "add" },
    });
    expect(result.text).toBe(LABELLED);
    expect(result.steps).toBe(2);
    expect(result.finishReason).toBe("stop");
    expect(result.usage?.inputTokens).toBeGreaterThan(0);
    expect(result.usage?.outputTokens).toBeGreaterThan(0);
  });

  it("is deterministic: the same turn gives the same result", async () => {
    const turn = () =>
      runTurn({
        model: demo,
        system: "s",
        history: [],
        user: "hello there",
        tool: binding(async () => ({ ok: true })),
        maxSteps: 4,
      });
    expect(await turn()).toEqual(await turn());
  });

  it("answers directly when the tool cannot react (reactionLevel off)", async () => {
    const calls: MessageToolInput[] = [];
    const result = await runTurn({
      model: demo,
      system: "s",
      history: [],
      user: "hello there",
      tool: binding(async (input) => {
        calls.push(input);
        return { ok: true };
      }, "off"),
      maxSteps: 8,
    });
    expect(calls).toEqual([]);
    expect(result).toMatchObject({ text: LABELLED, steps: 1, toolCalls: [] });
  });

  it("answers directly without a tool, and echoes only the latest user message", async () => {
    const result = await runTurn({
      model: demo,
      system: "s",
      history: [
        { role: "user", content: "an old question" },
        { role: "assistant", content: "an old answer" },
      ],
      user: "hello there",
      maxSteps: 8,
    });
    expect(result).toMatchObject({ text: LABELLED, steps: 1, toolCalls: [] });
  });

  it("tells the user when its reaction failed, and does not try again", async () => {
    let calls = 0;
    const result = await runTurn({
      model: demo,
      system: "s",
      history: [],
      user: "hello there",
      tool: binding(async () => {
        calls += 1;
        throw new ChorusError("E_UNSUPPORTED_EMOJI", "👍 is not available here");
      }),
      maxSteps: 8,
    });
    expect(calls).toBe(1);
    expect(result.toolCalls[0]?.output).toMatchObject({ ok: false, error: { code: "E_UNSUPPORTED_EMOJI" } });
    expect(result.text).toBe(`${LABELLED} (My 👍 reaction failed: 👍 is not available here)`);
  });

  it("stops at maxSteps 1 after the tool call", async () => {
    const result = await runTurn({
      model: demo,
      system: "s",
      history: [],
      user: "hello there",
      tool: binding(async () => ({ ok: true })),
      maxSteps: 1,
    });
    expect(result).toMatchObject({ steps: 1, text: "", finishReason: "tool-calls" });
    expect(result.toolCalls).toHaveLength(1);
  });

  it("fails cleanly when the turn is cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const turn = runTurn({ model: demo, system: "s", history: [], user: "hi", maxSteps: 2, signal: controller.signal });
    await expect(turn).rejects.toMatchObject({ name: "AgentError", message: expect.stringContaining("cancelled") });
  });
});

describe("DemoLanguageModel.doStream", () => {
  it("streams the tool call, then the text in word-sized deltas, through the turn loop", async () => {
    const calls: MessageToolInput[] = [];
    const result = await runSteps(new DemoLanguageModel(), {
      prompt: turnPrompt("s", [], "hello there"),
      tool: binding(async (input) => {
        calls.push(input);
        return { ok: true };
      }),
      maxSteps: 4,
      stream: true,
      maxRetries: 0,
      temperature: undefined,
      signal: undefined,
    });
    expect(result).toMatchObject({ steps: 2, text: LABELLED, finishReason: "stop" });
    expect(calls).toEqual([{ action: "react", emoji: "👍" }]);
    const { stream } = await new DemoLanguageModel().doStream({ prompt: turnPrompt("s", [], "hello there") });
    const [copy, read] = stream.tee();
    const deltas: string[] = [];
    for await (const part of copy) if (part.type === "text-delta") deltas.push(part.delta);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(LABELLED);
    expect((await readModelStream(read)).content).toEqual([{ type: "text", text: LABELLED }]);
  });

  it("emits stream-start first and finish last", async () => {
    const model = new DemoLanguageModel();
    const { stream } = await model.doStream({ prompt: [{ role: "user", content: [{ type: "text", text: "x" }] }] });
    const parts: LanguageModelV3StreamPart[] = [];
    for await (const part of stream) parts.push(part);
    expect(parts[0]?.type).toBe("stream-start");
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "stop" } });
  });
});

describe("planDemoStep", () => {
  const user = (text: string): LanguageModelV3Message => ({ role: "user", content: [{ type: "text", text }] });
  const tools = [
    {
      type: "function" as const,
      name: "message",
      inputSchema: { type: "object" as const, properties: { action: { type: "string", enum: ["send", "react"] } } },
    },
  ];

  it("does not call the tool when tools are switched off", () => {
    expect(planDemoStep({ prompt: [user("hi")], tools, toolChoice: { type: "none" } })).toMatchObject({ kind: "text" });
  });

  it("reacts again on a new user message after an earlier react", () => {
    const prompt: LanguageModelV3Message[] = [
      user("first"),
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "a", toolName: "message", input: { action: "react", emoji: "👍" } }],
      },
      { role: "assistant", content: [{ type: "text", text: "done" }] },
      user("second"),
    ];
    expect(planDemoStep({ prompt, tools })).toMatchObject({ kind: "react" });
  });

  it("shortens a very long echo", () => {
    const step = planDemoStep({ prompt: [user("x".repeat(1000))] });
    expect(step.kind === "text" && step.text.length).toBeLessThan(420);
    expect(step).toMatchObject({ text: expect.stringContaining("x…") });
  });

  it("says there is nothing to answer without a user message", () => {
    expect(planDemoStep({ prompt: [{ role: "system", content: "s" }] })).toMatchObject({
      kind: "text",
      text: expect.stringContaining("Demo agent (offline)"),
    });
  });
});
