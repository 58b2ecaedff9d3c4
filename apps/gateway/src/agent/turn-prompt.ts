import type {
  LanguageModelV3Content,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
} from "@ai-sdk/provider";
import type { ChatMessage, TurnToolCall } from "./types.js";

/** The prompt of a turn's first step: the system prompt, the conversation so far, what the user said now. */
export function turnPrompt(system: string, history: readonly ChatMessage[], user: string): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [{ role: "system", content: system }];
  for (const message of history) prompt.push(chatMessage(message.role, message.content));
  prompt.push(chatMessage("user", user));
  return prompt;
}

function chatMessage(role: ChatMessage["role"], text: string): LanguageModelV3Message {
  if (role === "user") return { role, content: [{ type: "text", text }] };
  return { role, content: text === "" ? [] : [{ type: "text", text }] };
}

/**
 * What a step that called tools adds to the prompt of the next: the model's own answer (its text,
 * reasoning and calls, with the metadata its provider needs back, such as thought signatures), then
 * each call's result.
 */
export function stepMessages(
  content: readonly LanguageModelV3Content[],
  calls: readonly TurnToolCall[],
): LanguageModelV3Message[] {
  const answer: Extract<LanguageModelV3Message, { role: "assistant" }> = { role: "assistant", content: [] };
  for (const part of content) {
    const providerOptions = "providerMetadata" in part ? part.providerMetadata : undefined;
    const options = providerOptions ? { providerOptions } : {};
    if ((part.type === "text" || part.type === "reasoning") && part.text !== "") {
      answer.content.push({ type: part.type, text: part.text, ...options });
    } else if (part.type === "tool-call" && !part.providerExecuted) {
      const call = calls.find((ran) => ran.id === part.toolCallId);
      answer.content.push({
        type: "tool-call",
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: call?.input ?? part.input,
        ...options,
      });
    }
  }
  const results: Extract<LanguageModelV3Message, { role: "tool" }> = {
    role: "tool",
    content: calls.map((call) => ({
      type: "tool-result",
      toolCallId: call.id,
      toolName: call.name,
      output: toolOutput(call.output),
    })),
  };
  return [answer, results];
}

function toolOutput(output: unknown): LanguageModelV3ToolResultOutput {
  if (typeof output === "string") return { type: "text", value: output };
  return {
    type: "json",
    value: (output ?? null) as Extract<LanguageModelV3ToolResultOutput, { type: "json" }>["value"],
  };
}
