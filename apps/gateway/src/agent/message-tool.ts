import type { LanguageModelV3FunctionTool, LanguageModelV3ToolCall } from "@ai-sdk/provider";
import { ChorusError, type MessageToolFailure, toChorusError } from "@chorus/core";
import type { MessageToolBinding, TurnToolCall } from "./types.js";

/** The `message` tool as the model is offered it: core's name, description and JSON schema. */
export function toModelTool(binding: MessageToolBinding): LanguageModelV3FunctionTool {
  const { definition } = binding;
  return {
    type: "function",
    name: definition.name,
    description: definition.description,
    inputSchema: definition.jsonSchema as LanguageModelV3FunctionTool["inputSchema"],
  };
}

/**
 * Runs one tool call the model made: its input parsed as JSON, then validated and run by the
 * binding. Whatever fails (an unknown tool, input that is not JSON, a refused or failed call)
 * becomes the `{ ok: false, error }` result the model reads.
 */
export async function runToolCall(call: LanguageModelV3ToolCall, binding?: MessageToolBinding): Promise<TurnToolCall> {
  const { toolCallId: id, toolName: name } = call;
  const parsed = parseToolInput(call.input);
  if (!binding || binding.definition.name !== name) {
    const offered = binding ? `the only tool is ${binding.definition.name}` : "this turn offers no tools";
    const refused = new ChorusError("E_INVALID_INPUT", `There is no tool named ${name}: ${offered}`);
    return { id, name, input: parsed.ok ? parsed.value : call.input, output: toolFailure(refused) };
  }
  if (!parsed.ok) {
    const refused = new ChorusError("E_INVALID_INPUT", `The ${name} call's input is not JSON: ${parsed.reason}`);
    return { id, name, input: call.input, output: toolFailure(refused) };
  }
  return { id, name, input: parsed.value, output: await runMessageTool(binding, parsed.value) };
}

/** Validates a call with the channel's definition and runs it; any failure becomes `{ ok: false, error }`. */
export async function runMessageTool(binding: MessageToolBinding, input: unknown): Promise<unknown> {
  try {
    const call = binding.definition.parse(input);
    return await binding.execute(call);
  } catch (error) {
    return toolFailure(error);
  }
}

/** The result a failed tool call gives the model: the error's code, message and hint, never a stack. */
export function toolFailure(error: unknown): MessageToolFailure {
  return { ok: false, error: toChorusError(error, "The message tool failed").toJSON() };
}

type Parsed = { ok: true; value: unknown } | { ok: false; reason: string };

/** A tool call's input text as JSON; no input at all is an empty object, as models send it. */
function parseToolInput(input: string): Parsed {
  if (input.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(input) as unknown };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
