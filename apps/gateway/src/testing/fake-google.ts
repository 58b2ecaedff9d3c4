import { googleImages } from "./fake-images.js";
import { createFakeProvider, type FakeProvider, type ProviderWire, sse } from "./fake-provider.js";

/**
 * Google's Gemini API (`POST /v1beta/models/<model>:generateContent`, `:streamGenerateContent?alt=sse`,
 * `x-goog-api-key`), answers and stream chunks as Google sends them.
 */
export const googleWire: ProviderWire = {
  basePath: "/v1beta",
  chat: {
    method: "POST",
    path: /^\/v1beta\/models\/[^/]+:(generateContent|streamGenerateContent)$/,
    stream: (ctx) => ctx.path.endsWith(":streamGenerateContent"),
  },
  list: {
    path: "/models",
    answer: (models) => ({
      models: models.map((id) => ({
        name: `models/${id}`,
        displayName: id,
        supportedGenerationMethods: ["generateContent"],
      })),
    }),
  },
  unauthorized: (ctx, apiKey) =>
    ctx.headers["x-goog-api-key"] === apiKey || ctx.query.get("key") === apiKey
      ? undefined
      : { status: 400, json: googleError(400, "API key not valid. Please pass a valid API key.", "INVALID_ARGUMENT") },
  error: (status) =>
    googleError(
      status,
      status === 429 ? "Resource has been exhausted (e.g. check quota)." : `HTTP ${status}`,
      status === 429 ? "RESOURCE_EXHAUSTED" : "INTERNAL",
    ),
  images: googleImages,
  answer: (_request, reply, _serial, stream) => {
    const parts = [
      ...(reply.text ? [{ text: reply.text }] : []),
      ...(reply.toolCalls ?? []).map((call) => ({ functionCall: { name: call.name, args: call.arguments } })),
    ];
    const usageMetadata = { promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 };
    const candidate = (content: unknown[], finish: boolean) => ({
      content: { role: "model", parts: content },
      ...(finish ? { finishReason: "STOP" } : {}),
      index: 0,
    });
    if (!stream) return { json: { candidates: [candidate(parts, true)], usageMetadata, modelVersion: "fake" } };
    const chunks = parts.map((part, i) => ({
      candidates: [candidate([part], i === parts.length - 1)],
      ...(i === parts.length - 1 ? { usageMetadata } : {}),
      modelVersion: "fake",
    }));
    return { headers: { "content-type": "text/event-stream" }, body: sse(chunks.map((data) => ({ data }))) };
  },
};

function googleError(code: number, message: string, status: string) {
  return { error: { code, message, status } };
}

/** Starts a fake Gemini API; `url` is the `baseURL` (`…/v1beta`). */
export function createFakeGoogle(options: { apiKey?: string; models?: string[] } = {}): Promise<FakeProvider> {
  return createFakeProvider(googleWire, options);
}
