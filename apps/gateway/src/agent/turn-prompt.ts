import type {
  LanguageModelV3Content,
  LanguageModelV3FilePart,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
} from "@ai-sdk/provider";
import type { MessageImage } from "../understand/index.js";
import type { ChatMessage, TurnToolCall } from "./types.js";

/**
 * The prompt of a turn's first step: the system prompt, the conversation so far, what the user said
 * now, and the photos of the current message as image input after its text.
 */
export function turnPrompt(
  system: string,
  history: readonly ChatMessage[],
  user: string,
  images: readonly MessageImage[] = [],
): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [{ role: "system", content: system }];
  for (const message of history) prompt.push(chatMessage(message.role, message.content));
  const current = chatMessage("user", user);
  if (current.role === "user") current.content.push(...images.map(imagePart));
  prompt.push(current);
  return prompt;
}

/**
 * A photo as the AI SDK's file part, its bytes in base64: every provider sends that as its API wants
 * it (OpenAI an `image_url` data URL, Anthropic a base64 `image` source, Gemini `inlineData`), and
 * Ollama's provider copies the data into `images` as it is, which its API reads only as base64.
 */
function imagePart(image: MessageImage): LanguageModelV3FilePart {
  return { type: "file", mediaType: image.mediaType, data: Buffer.from(image.data).toString("base64") };
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
