import { ollamaImages } from "./fake-images.js";
import { createFakeProvider, type FakeProvider, type ProviderWire } from "./fake-provider.js";

/** Ollama's native API (`POST /api/chat`, NDJSON when streaming; `GET /api/tags`), no authentication. */
export const ollamaWire: ProviderWire = {
  basePath: "/api",
  chat: { method: "POST", path: /^\/api\/chat$/, stream: (ctx) => ctx.json<{ stream?: boolean }>().stream !== false },
  list: {
    path: "/tags",
    answer: (models) => ({
      models: models.map((name) => ({
        name,
        model: name,
        modified_at: "2025-01-01T00:00:00Z",
        size: 1,
        digest: "fake",
      })),
    }),
  },
  unauthorized: () => undefined,
  images: ollamaImages,
  error: (status) => ({ error: status === 404 ? 'model "fake" not found, try pulling it first' : `HTTP ${status}` }),
  answer: (request, reply, _serial, stream) => {
    const model = (request as { model: string }).model;
    const created_at = new Date().toISOString();
    const toolCalls = (reply.toolCalls ?? []).map((call) => ({
      function: { name: call.name, arguments: call.arguments },
    }));
    const done = { done: true, done_reason: "stop", prompt_eval_count: 12, eval_count: 7, total_duration: 1000 };
    if (!stream) {
      const message = {
        role: "assistant",
        content: reply.text ?? "",
        ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      };
      return { json: { model, created_at, message, ...done } };
    }
    const text = reply.text ?? "";
    const half = Math.ceil(text.length / 2);
    const lines = [
      ...[text.slice(0, half), text.slice(half)]
        .filter((part) => part !== "")
        .map((content) => ({ model, created_at, message: { role: "assistant", content }, done: false })),
      ...(toolCalls.length
        ? [{ model, created_at, message: { role: "assistant", content: "", tool_calls: toolCalls }, done: false }]
        : []),
      { model, created_at, message: { role: "assistant", content: "" }, ...done },
    ];
    return {
      headers: { "content-type": "application/x-ndjson" },
      body: lines.map((line) => `${JSON.stringify(line)}\n`).join(""),
    };
  },
};

/** Starts a fake Ollama; `url` is the `baseURL` (`…/api`). */
export function createFakeOllama(options: { models?: string[] } = {}): Promise<FakeProvider> {
  return createFakeProvider(ollamaWire, options);
}
