import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
  SharedV3ProviderMetadata,
} from "@ai-sdk/provider";
import { withModelRetries } from "./model-retries.js";

/** What one call of the model produced. */
export interface ModelStep {
  /** Text, reasoning and tool calls, in the order the model gave them. */
  content: LanguageModelV3Content[];
  /** `stop`, `tool-calls`, `length`, `content-filter`, `error` or `other`. */
  finishReason: string;
  usage: LanguageModelV3Usage;
}

/** A streamed answer that ended before the model said it was finished. */
export class IncompleteModelReplyError extends Error {
  override readonly name = "IncompleteModelReplyError";

  constructor() {
    super("The model's stream ended without a finish");
  }
}

/** One call of the model that answers in one piece, retried as `withModelRetries` says. */
export async function generateStep(
  model: LanguageModelV3,
  options: LanguageModelV3CallOptions,
  maxRetries: number,
): Promise<ModelStep> {
  const result = await withModelRetries(() => model.doGenerate(options), maxRetries, options.abortSignal);
  return { content: result.content, finishReason: result.finishReason.unified, usage: result.usage };
}

/**
 * One streamed call of the model, read to its end. Opening the stream is retried as
 * `withModelRetries` says; an error inside the stream fails the step.
 */
export async function streamStep(
  model: LanguageModelV3,
  options: LanguageModelV3CallOptions,
  maxRetries: number,
): Promise<ModelStep> {
  const { stream } = await withModelRetries(() => model.doStream(options), maxRetries, options.abortSignal);
  return readModelStream(stream);
}

type Streamed = Extract<LanguageModelV3Content, { type: "text" | "reasoning" }>;

/** Assembles a stream's parts into the content `doGenerate` would have given. */
export async function readModelStream(stream: ReadableStream<LanguageModelV3StreamPart>): Promise<ModelStep> {
  const content: LanguageModelV3Content[] = [];
  const open = new Map<string, Streamed>();
  const piece = (type: Streamed["type"], id: string, metadata: SharedV3ProviderMetadata | undefined): Streamed => {
    const key = `${type}:${id}`;
    let part = open.get(key);
    if (!part) {
      part = { type, text: "" } as Streamed;
      open.set(key, part);
      content.push(part);
    }
    if (metadata) part.providerMetadata = Object.assign(part.providerMetadata ?? {}, metadata);
    return part;
  };
  for await (const part of stream) {
    switch (part.type) {
      case "text-start":
      case "text-end":
        piece("text", part.id, part.providerMetadata);
        break;
      case "reasoning-start":
      case "reasoning-end":
        piece("reasoning", part.id, part.providerMetadata);
        break;
      case "text-delta":
        piece("text", part.id, part.providerMetadata).text += part.delta;
        break;
      case "reasoning-delta":
        piece("reasoning", part.id, part.providerMetadata).text += part.delta;
        break;
      case "tool-call":
      case "tool-result":
      case "tool-approval-request":
      case "file":
      case "source":
        content.push(part);
        break;
      case "finish":
        return { content, finishReason: part.finishReason.unified, usage: part.usage };
      case "error":
        throw part.error;
      default:
        // stream-start, response-metadata, raw, and tool-input-*: the tool call comes whole after them.
        break;
    }
  }
  throw new IncompleteModelReplyError();
}
