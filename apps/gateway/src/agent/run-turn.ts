import { ChorusError } from "@chorus/core";
import {
  generateText,
  type LanguageModelUsage,
  type ModelMessage,
  type StepResult,
  stepCountIs,
  streamText,
  type ToolSet,
} from "ai";
import { toAgentError } from "./errors.js";
import { settleMessageSchema } from "./message-schema.js";
import { toAiTool, toolFailure } from "./message-tool.js";
import { createLanguageModel } from "./model.js";
import type { TurnInput, TurnResult, TurnToolCall } from "./types.js";

settleMessageSchema();

/** Runs one agent turn: the model answers `user`, calling the `message` tool up to `maxSteps` steps. */
export async function runTurn(input: TurnInput): Promise<TurnResult> {
  const { model: config } = input;
  const tools: ToolSet = input.tool ? { [input.tool.definition.name]: toAiTool(input.tool) } : {};
  const messages: ModelMessage[] = [
    ...input.history.map((message): ModelMessage => ({ role: message.role, content: message.content })),
    { role: "user", content: input.user },
  ];
  const settings = {
    model: await createLanguageModel(config),
    system: input.system,
    messages,
    tools,
    stopWhen: stepCountIs(input.maxSteps),
    maxRetries: config.provider === "demo" || config.provider === "external" ? 0 : config.maxRetries,
    ...(config.provider !== "demo" && config.provider !== "external" && config.temperature !== undefined
      ? { temperature: config.temperature }
      : {}),
    ...(input.signal ? { abortSignal: input.signal } : {}),
  };
  try {
    if (config.provider !== "demo" && config.provider !== "external" && config.stream) {
      let failure: { error: unknown } | undefined;
      const result = streamText({
        ...settings,
        onError: ({ error }) => {
          failure ??= { error };
        },
      });
      await result.consumeStream();
      if (failure) throw failure.error;
      input.signal?.throwIfAborted();
      return summarize(await result.steps, await result.totalUsage);
    }
    const result = await generateText(settings);
    return summarize(result.steps, result.totalUsage);
  } catch (error) {
    throw toAgentError(error, config, { cancelled: input.signal?.aborted === true });
  }
}

function summarize(steps: readonly StepResult<ToolSet>[], usage: LanguageModelUsage): TurnResult {
  const last = steps.at(-1);
  const result: TurnResult = {
    text: last?.text ?? "",
    toolCalls: steps.flatMap(toolCallsOf),
    steps: steps.length,
    finishReason: last?.finishReason ?? "other",
  };
  // Set one by one rather than spread into a literal: see `copyWith`.
  const tokens: NonNullable<TurnResult["usage"]> = {};
  if (usage.inputTokens !== undefined) tokens.inputTokens = usage.inputTokens;
  if (usage.outputTokens !== undefined) tokens.outputTokens = usage.outputTokens;
  if (Object.keys(tokens).length > 0) result.usage = tokens;
  return result;
}

/** The tool calls of one step with what each returned; calls the SDK refused carry their error. */
function toolCallsOf(step: StepResult<ToolSet>): TurnToolCall[] {
  return step.content.flatMap((part): TurnToolCall[] => {
    if (part.type === "tool-result") {
      return [{ id: part.toolCallId, name: part.toolName, input: part.input, output: part.output }];
    }
    if (part.type === "tool-error") {
      const reason = part.error instanceof Error ? part.error.message : String(part.error);
      const refused = new ChorusError("E_INVALID_INPUT", `The ${part.toolName} call could not run: ${reason}`);
      return [{ id: part.toolCallId, name: part.toolName, input: part.input, output: toolFailure(refused) }];
    }
    return [];
  });
}
