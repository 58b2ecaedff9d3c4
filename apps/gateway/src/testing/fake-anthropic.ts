import { anthropicImages } from "./fake-images.js";
import type { FakeToolCall } from "./fake-openai-wire.js";
import { createFakeProvider, type FakeProvider, type ProviderWire, sse } from "./fake-provider.js";

/** Anthropic's Messages API (`POST /v1/messages`, `x-api-key`), answers and SSE stream as Anthropic sends them. */
export const anthropicWire: ProviderWire = {
  basePath: "/v1",
  chat: { method: "POST", path: /^\/v1\/messages$/, stream: (ctx) => ctx.json<{ stream?: boolean }>().stream === true },
  list: {
    path: "/models",
    answer: (models) => ({
      data: models.map((id) => ({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" })),
      has_more: false,
      first_id: models[0] ?? null,
      last_id: models.at(-1) ?? null,
    }),
  },
  unauthorized: (ctx, apiKey) =>
    ctx.headers["x-api-key"] === apiKey
      ? undefined
      : { status: 401, json: anthropicError("authentication_error", "invalid x-api-key") },
  error: (status) =>
    status === 429
      ? anthropicError("rate_limit_error", "Number of requests has exceeded your rate limit")
      : status === 529
        ? anthropicError("overloaded_error", "Overloaded")
        : anthropicError(status >= 500 ? "api_error" : "invalid_request_error", `HTTP ${status}`),
  images: anthropicImages,
  answer: (request, reply, serial, stream) => {
    const model = (request as { model: string }).model;
    const blocks = [
      ...(reply.text ? [{ type: "text", text: reply.text }] : []),
      ...(reply.toolCalls ?? []).map((call, i) => toolUse(call, serial, i)),
    ];
    const stopReason = reply.toolCalls?.length ? "tool_use" : "end_turn";
    const usage = { input_tokens: 12, output_tokens: 7 };
    const message = { id: `msg_fake_${serial}`, type: "message", role: "assistant", model };
    if (!stream) {
      return { json: { ...message, content: blocks, stop_reason: stopReason, stop_sequence: null, usage } };
    }
    const events: { event: string; data: unknown }[] = [
      {
        event: "message_start",
        data: {
          type: "message_start",
          message: {
            ...message,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { ...usage, output_tokens: 1 },
          },
        },
      },
    ];
    blocks.forEach((block, index) => {
      if (block.type === "text") {
        const text = (block as { text: string }).text;
        const half = Math.ceil(text.length / 2);
        events.push(
          {
            event: "content_block_start",
            data: { type: "content_block_start", index, content_block: { type: "text", text: "" } },
          },
          ...[text.slice(0, half), text.slice(half)].map((part) => ({
            event: "content_block_delta",
            data: { type: "content_block_delta", index, delta: { type: "text_delta", text: part } },
          })),
        );
      } else {
        const { input, ...start } = block as { input: object };
        events.push(
          {
            event: "content_block_start",
            data: { type: "content_block_start", index, content_block: { ...start, input: {} } },
          },
          {
            event: "content_block_delta",
            data: {
              type: "content_block_delta",
              index,
              delta: { type: "input_json_delta", partial_json: JSON.stringify(input) },
            },
          },
        );
      }
      events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    });
    events.push(
      {
        event: "message_delta",
        data: {
          type: "message_delta",
          delta: { stop_reason: stopReason, stop_sequence: null },
          usage: { output_tokens: 7 },
        },
      },
      { event: "message_stop", data: { type: "message_stop" } },
    );
    return { headers: { "content-type": "text/event-stream; charset=utf-8" }, body: sse(events) };
  },
};

function toolUse(call: FakeToolCall, serial: number, index: number) {
  return { type: "tool_use", id: call.id ?? `toolu_fake_${serial}_${index}`, name: call.name, input: call.arguments };
}

function anthropicError(type: string, message: string) {
  return { type: "error", error: { type, message } };
}

/** Starts a fake Anthropic Messages API; `url` is the `baseURL` (`…/v1`). */
export function createFakeAnthropic(options: { apiKey?: string; models?: string[] } = {}): Promise<FakeProvider> {
  return createFakeProvider(anthropicWire, options);
}
