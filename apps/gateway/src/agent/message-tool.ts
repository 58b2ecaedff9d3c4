import { type MessageToolFailure, toChorusError } from "@chorus/core";
import { type JSONSchema7, jsonSchema, type Tool, tool } from "ai";
import type { MessageToolBinding } from "./types.js";

/** The `message` tool as the AI SDK declares it: core's schema and description, errors returned as results. */
export function toAiTool(binding: MessageToolBinding): Tool<unknown, unknown> {
  const { definition } = binding;
  return tool<unknown, unknown>({
    description: definition.description,
    inputSchema: jsonSchema<unknown>(definition.jsonSchema as JSONSchema7),
    execute: (input) => runMessageTool(binding, input),
  });
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
