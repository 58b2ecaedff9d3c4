import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { toAgentError } from "./errors.js";
import { runToolCall, toModelTool } from "./message-tool.js";
import { createLanguageModel } from "./model.js";
import { generateStep, type ModelStep, streamStep } from "./model-step.js";
import { stepMessages, turnPrompt } from "./turn-prompt.js";
import type { MessageToolBinding, TurnInput, TurnResult, TurnToolCall } from "./types.js";

/** Runs one agent turn: the model answers `user`, calling the `message` tool up to `maxSteps` steps. */
export async function runTurn(input: TurnInput): Promise<TurnResult> {
  const { model: config } = input;
  const remote = config.provider !== "demo" && config.provider !== "external" ? config : undefined;
  try {
    const result = await runSteps(await createLanguageModel(config), {
      prompt: turnPrompt(input.system, input.history, input.user, input.images),
      tool: input.tool,
      maxSteps: input.maxSteps,
      stream: remote?.stream === true,
      maxRetries: remote?.maxRetries ?? 0,
      temperature: remote?.temperature,
      signal: input.signal,
    });
    input.signal?.throwIfAborted();
    return result;
  } catch (error) {
    throw toAgentError(error, config, { cancelled: input.signal?.aborted === true });
  }
}

/** How `runSteps` calls the model. */
export interface StepsOptions {
  prompt: LanguageModelV3Prompt;
  tool: MessageToolBinding | undefined;
  maxSteps: number;
  /** Read each answer as a stream rather than in one piece. */
  stream: boolean;
  maxRetries: number;
  temperature: number | undefined;
  signal: AbortSignal | undefined;
}

/**
 * Calls the model, runs the tool calls of its answer and calls it again with their results, until
 * an answer calls no tool or `maxSteps` answers were made. The prompt grows by each step's messages.
 */
export async function runSteps(model: LanguageModelV3, options: StepsOptions): Promise<TurnResult> {
  const { prompt, tool, signal } = options;
  const call: LanguageModelV3CallOptions = { prompt };
  if (tool) {
    call.tools = [toModelTool(tool)];
    call.toolChoice = { type: "auto" };
  }
  if (options.temperature !== undefined) call.temperature = options.temperature;
  if (signal) call.abortSignal = signal;
  const result: TurnResult = { text: "", toolCalls: [], steps: 0, finishReason: "other" };
  const usage = new UsageSum();
  for (;;) {
    signal?.throwIfAborted();
    const step: ModelStep = options.stream
      ? await streamStep(model, call, options.maxRetries)
      : await generateStep(model, call, options.maxRetries);
    result.steps += 1;
    result.finishReason = step.finishReason;
    usage.add(step);
    const calls: TurnToolCall[] = [];
    let text = "";
    for (const part of step.content) {
      if (part.type === "text") text += part.text;
      else if (part.type === "tool-call" && !part.providerExecuted) calls.push(await runToolCall(part, tool));
    }
    result.text = text;
    result.toolCalls.push(...calls);
    if (calls.length === 0 || result.steps >= options.maxSteps) break;
    prompt.push(...stepMessages(step.content, calls));
  }
  const tokens = usage.total();
  if (tokens) result.usage = tokens;
  return result;
}

/** The tokens of a turn's steps, added up; a count no step reported stays unknown. */
class UsageSum {
  #input: number | undefined;
  #output: number | undefined;

  add(step: ModelStep): void {
    const { inputTokens, outputTokens } = step.usage;
    if (inputTokens.total !== undefined) this.#input = (this.#input ?? 0) + inputTokens.total;
    if (outputTokens.total !== undefined) this.#output = (this.#output ?? 0) + outputTokens.total;
  }

  total(): TurnResult["usage"] {
    if (this.#input === undefined && this.#output === undefined) return undefined;
    const tokens: NonNullable<TurnResult["usage"]> = {};
    if (this.#input !== undefined) tokens.inputTokens = this.#input;
    if (this.#output !== undefined) tokens.outputTokens = this.#output;
    return tokens;
  }
}
