/** The OpenAI chat-completions wire format, as the fake server speaks it. */

/** One tool call the fake model makes. */
export interface FakeToolCall {
  name: string;
  arguments: object;
  /** The `tool_calls[].id`; default `call_<n>_<i>`. */
  id?: string;
}

/** A message of a chat-completions request, as a client sent it. */
export interface FakeChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content?: string | null | { type: string; text?: string; image_url?: { url: string; detail?: string } }[];
  tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  [key: string]: unknown;
}

/** A tool declared in a chat-completions request. */
export interface FakeToolSpec {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

/** A parsed `POST /v1/chat/completions` body. */
export interface FakeChatRequest {
  model: string;
  messages: FakeChatMessage[];
  tools?: FakeToolSpec[];
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  temperature?: number;
  [key: string]: unknown;
}

/** What the fake model answers: text, tool calls, or both. */
export interface FakeCompletion {
  text?: string;
  toolCalls?: FakeToolCall[];
}

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** Everything one answer needs besides its content. */
export interface CompletionMeta {
  /** `chatcmpl-fake-<n>`, and the prefix of generated tool-call ids. */
  serial: number;
  model: string;
  created: number;
}

const FINGERPRINT = "fp_chorus_fake";

/** A rough, deterministic token count: one token per four characters. */
export function countTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The prompt's token count, over every message's text and tool-call arguments. */
export function promptTokens(request: FakeChatRequest): number {
  return request.messages.reduce((sum, message) => sum + countTokens(JSON.stringify(message)), 0);
}

function completionUsage(request: FakeChatRequest, completion: FakeCompletion): Usage {
  const prompt = promptTokens(request);
  const args = (completion.toolCalls ?? []).map((call) => JSON.stringify(call.arguments)).join("");
  const completionTokens = countTokens((completion.text ?? "") + args);
  return { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens };
}

function toolCallId(meta: CompletionMeta, call: FakeToolCall, index: number): string {
  return call.id ?? `call_${meta.serial}_${index}`;
}

function finishReason(completion: FakeCompletion): "stop" | "tool_calls" {
  return completion.toolCalls && completion.toolCalls.length > 0 ? "tool_calls" : "stop";
}

/** A non-streaming `chat.completion` object. */
export function chatCompletion(request: FakeChatRequest, completion: FakeCompletion, meta: CompletionMeta): object {
  const calls = completion.toolCalls ?? [];
  const message: Record<string, unknown> = { role: "assistant", content: completion.text ?? null, refusal: null };
  if (calls.length > 0) {
    message.tool_calls = calls.map((call, index) => ({
      id: toolCallId(meta, call, index),
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
  }
  return {
    id: `chatcmpl-fake-${meta.serial}`,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(completion) }],
    usage: completionUsage(request, completion),
    system_fingerprint: FINGERPRINT,
  };
}

/** Splits text into word-sized pieces (spaces kept), so a stream has several deltas. */
export function splitDeltas(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** The SSE body of a streamed answer: `chat.completion.chunk` events, then `data: [DONE]`. */
export function chatCompletionStream(
  request: FakeChatRequest,
  completion: FakeCompletion,
  meta: CompletionMeta,
): string {
  const includeUsage = request.stream_options?.include_usage === true;
  const chunk = (choices: object[], extra: object = {}): object => ({
    id: `chatcmpl-fake-${meta.serial}`,
    object: "chat.completion.chunk",
    created: meta.created,
    model: meta.model,
    system_fingerprint: FINGERPRINT,
    choices,
    ...(includeUsage ? { usage: null } : {}),
    ...extra,
  });
  const delta = (value: object, finish: string | null = null): object => ({
    index: 0,
    delta: value,
    logprobs: null,
    finish_reason: finish,
  });
  const chunks: object[] = [chunk([delta({ role: "assistant", content: "" })])];
  for (const piece of splitDeltas(completion.text ?? "")) chunks.push(chunk([delta({ content: piece })]));
  (completion.toolCalls ?? []).forEach((call, index) => {
    const args = JSON.stringify(call.arguments);
    const head = {
      index,
      id: toolCallId(meta, call, index),
      type: "function",
      function: { name: call.name, arguments: "" },
    };
    chunks.push(chunk([delta({ tool_calls: [head] })]));
    const middle = Math.ceil(args.length / 2);
    for (const piece of [args.slice(0, middle), args.slice(middle)]) {
      if (piece !== "") chunks.push(chunk([delta({ tool_calls: [{ index, function: { arguments: piece } }] })]));
    }
  });
  chunks.push(chunk([delta({}, finishReason(completion))]));
  if (includeUsage) chunks.push(chunk([], { usage: completionUsage(request, completion) }));
  return `${chunks.map((value) => `data: ${JSON.stringify(value)}\n\n`).join("")}data: [DONE]\n\n`;
}

/** An error body the way OpenAI shapes it. */
export function openAIError(message: string, type: string, code: string | null = null): object {
  return { error: { message, type, param: null, code } };
}

/** Problems with a chat-completions body, as OpenAI would name them; empty when it is fine. */
export function requestProblems(body: unknown): string[] {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return ["the body must be a JSON object"];
  const record = body as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof record.model !== "string" || record.model === "") problems.push("'model' is required");
  if (!Array.isArray(record.messages) || record.messages.length === 0) {
    problems.push("'messages' must be a non-empty array");
  } else {
    const callIds = new Set<string>();
    record.messages.forEach((raw, index) => {
      const message = (raw ?? {}) as Partial<FakeChatMessage>;
      if (!["system", "developer", "user", "assistant", "tool"].includes(String(message.role))) {
        problems.push(`'messages.${index}.role' is invalid`);
      }
      for (const call of message.tool_calls ?? []) callIds.add(call.id);
      if (message.role === "tool" && !callIds.has(String(message.tool_call_id))) {
        problems.push(`'messages.${index}.tool_call_id' does not answer an earlier assistant tool call`);
      }
    });
  }
  if (record.tools !== undefined && !Array.isArray(record.tools)) problems.push("'tools' must be an array");
  return problems;
}

/** The text of a chat-completions request's last user message (what the agent was asked; its text parts when it has images too). */
export function lastUserText(request: Pick<FakeChatRequest, "messages"> | undefined): string {
  const content = request?.messages.filter((m) => m.role === "user").at(-1)?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content) && content.some((part) => part.type === "text"))
    return content.map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
  return JSON.stringify(content);
}
