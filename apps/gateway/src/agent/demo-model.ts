import { type DemoStep, planDemoStep } from "./demo-reply.js";
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from "./types.js";

/**
 * The offline demo model: deterministic, no network. It reacts 👍 through the `message` tool when it
 * is offered one with a `react` action, then answers with a labelled echo of what the user said.
 */
export class DemoLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = "v3";
  readonly provider = "chorus.demo";
  readonly modelId = "demo";
  readonly supportedUrls: Record<string, RegExp[]> = {};

  /** Answers in one piece. */
  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    options.abortSignal?.throwIfAborted();
    const step = planDemoStep(options);
    return {
      content: [contentOf(step)],
      finishReason: finishReasonOf(step),
      usage: usageOf(options, step),
      warnings: [],
      response: { id: `demo-${options.prompt.length}`, modelId: this.modelId },
    };
  }

  /** Answers as a stream: text in word-sized deltas, a tool call as one input delta. */
  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    options.abortSignal?.throwIfAborted();
    const step = planDemoStep(options);
    const parts: LanguageModelV3StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "response-metadata", id: `demo-${options.prompt.length}`, modelId: this.modelId },
      ...streamPartsOf(step),
      { type: "finish", finishReason: finishReasonOf(step), usage: usageOf(options, step) },
    ];
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
    return { stream };
  }
}

function contentOf(step: DemoStep): LanguageModelV3Content {
  if (step.kind === "text") return { type: "text", text: step.text };
  return { type: "tool-call", toolCallId: step.toolCallId, toolName: "message", input: JSON.stringify(step.input) };
}

function streamPartsOf(step: DemoStep): LanguageModelV3StreamPart[] {
  if (step.kind === "react") {
    const { toolCallId: id } = step;
    const input = JSON.stringify(step.input);
    return [
      { type: "tool-input-start", id, toolName: "message" },
      { type: "tool-input-delta", id, delta: input },
      { type: "tool-input-end", id },
      { type: "tool-call", toolCallId: id, toolName: "message", input },
    ];
  }
  const deltas = (step.text.match(/\S+\s*|\s+/g) ?? []).map(
    (delta): LanguageModelV3StreamPart => ({ type: "text-delta", id: "text-0", delta }),
  );
  return [{ type: "text-start", id: "text-0" }, ...deltas, { type: "text-end", id: "text-0" }];
}

function finishReasonOf(step: DemoStep): LanguageModelV3GenerateResult["finishReason"] {
  return step.kind === "react" ? { unified: "tool-calls", raw: "tool_calls" } : { unified: "stop", raw: "stop" };
}

/** Deterministic token counts: one token per four characters of prompt text and output. */
function usageOf(options: LanguageModelV3CallOptions, step: DemoStep): LanguageModelV3Usage {
  const input = Math.ceil(promptLength(options.prompt) / 4);
  const output = Math.ceil((step.kind === "text" ? step.text : JSON.stringify(step.input)).length / 4);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

/** The characters of a prompt's text, counted without serialising it (the demo runs every turn of a fresh install). */
function promptLength(prompt: LanguageModelV3CallOptions["prompt"]): number {
  let length = 0;
  for (const message of prompt) {
    if (typeof message.content === "string") {
      length += message.content.length;
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text" || part.type === "reasoning") length += part.text.length;
      else if (part.type === "tool-call") length += JSON.stringify(part.input ?? null).length;
      else if (part.type === "tool-result") length += JSON.stringify(part.output).length;
    }
  }
  return length;
}
