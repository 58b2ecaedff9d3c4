import { buildMessageTool, type MessageToolInput } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { fullCapabilities } from "../testing/index.js";
import { runToolCall, toModelTool } from "./message-tool.js";
import type { MessageToolBinding } from "./types.js";

function binding(calls: MessageToolInput[] = []): MessageToolBinding {
  return {
    definition: buildMessageTool({ capabilities: fullCapabilities(), channel: "Test" }),
    execute: async (input) => {
      calls.push(input);
      return { ok: true };
    },
  };
}

const call = (toolName: string, input: string) => ({ type: "tool-call" as const, toolCallId: "c1", toolName, input });

describe("runToolCall", () => {
  it("runs a valid call with its parsed input", async () => {
    const calls: MessageToolInput[] = [];
    const ran = await runToolCall(call("message", '{"action":"react","emoji":"👍"}'), binding(calls));
    expect(ran).toEqual({ id: "c1", name: "message", input: { action: "react", emoji: "👍" }, output: { ok: true } });
    expect(calls).toEqual([{ action: "react", emoji: "👍" }]);
  });

  it("refuses input that is not JSON without running the tool, and keeps the text the model sent", async () => {
    const calls: MessageToolInput[] = [];
    const ran = await runToolCall(call("message", '{"action":'), binding(calls));
    expect(ran.input).toBe('{"action":');
    expect(ran.output).toMatchObject({
      ok: false,
      error: { code: "E_INVALID_INPUT", message: expect.stringMatching(/^The message call's input is not JSON: /) },
    });
    expect(calls).toEqual([]);
  });

  it("reads no input at all as an empty object, which the tool's validation then refuses", async () => {
    const ran = await runToolCall(call("message", " "), binding());
    expect(ran.input).toEqual({});
    expect(ran.output).toMatchObject({ ok: false, error: { code: "E_INVALID_INPUT" } });
  });

  it("answers a tool that does not exist, naming it and the one there is", async () => {
    const ran = await runToolCall(call("browse", '{"url":"x"}'), binding());
    expect(ran).toMatchObject({ name: "browse", input: { url: "x" } });
    expect(ran.output).toMatchObject({
      ok: false,
      error: { code: "E_INVALID_INPUT", message: "There is no tool named browse: the only tool is message" },
    });
    const none = await runToolCall(call("message", "{}"));
    expect(none.output).toMatchObject({
      error: { message: "There is no tool named message: this turn offers no tools" },
    });
  });
});

describe("toModelTool", () => {
  it("offers core's name, description and JSON schema as a function tool", () => {
    const tool = binding();
    expect(toModelTool(tool)).toEqual({
      type: "function",
      name: "message",
      description: tool.definition.description,
      inputSchema: tool.definition.jsonSchema,
    });
  });
});
