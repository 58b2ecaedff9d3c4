import { createFakeServer, type FakeResponse, type FakeServer, type RequestContext, waitFor } from "@chorus/testkit";
import type { FakeImage, ImagesRead } from "./fake-images.js";
import type { FakeToolCall } from "./fake-openai-wire.js";

/**
 * One scripted answer of a provider fake: text and/or tool calls, an HTTP error, or a stall (a 200
 * answer's headers, then nothing until the server closes).
 */
export type FakeProviderReply =
  | { text?: string; toolCalls?: FakeToolCall[] }
  | { status: number; body?: unknown }
  | { stall: true };

/** How one provider's wire API looks: its routes, its auth check, its answers. */
export interface ProviderWire {
  /** The base URL's path after the origin (`/v1`, `/v1beta`, `/api`): what `baseURL` takes. */
  basePath: string;
  /** The request path of a model call; `stream` tells whether it asked for a stream. */
  chat: { method: string; path: RegExp; stream(ctx: RequestContext): boolean };
  /** The cheap listing route doctor calls. */
  list: { path: string; answer(models: readonly string[]): unknown };
  /** Undefined when the request carries `apiKey` the provider's way. */
  unauthorized(ctx: RequestContext, apiKey: string): FakeResponse | undefined;
  answer(
    request: unknown,
    reply: { text?: string; toolCalls?: FakeToolCall[] },
    serial: number,
    stream: boolean,
  ): FakeResponse;
  error(status: number): unknown;
  /** The images a model call carries, the provider's way, or its refusal of them. */
  images(request: unknown): ImagesRead;
}

/** A fake of one model provider's wire API on 127.0.0.1, scripted reply by reply. */
export interface FakeProvider {
  /** `http://127.0.0.1:PORT<basePath>`: the model's `baseURL`. */
  readonly url: string;
  readonly server: FakeServer;
  /** Parsed bodies of every model call, oldest first. */
  readonly requests: Record<string, unknown>[];
  /** Request paths of every model call (Google puts the model and the mode in the path). */
  readonly paths: string[];
  /** Every image the model calls carried, decoded as the provider decodes them, oldest first. */
  readonly images: FakeImage[];
  script(...replies: FakeProviderReply[]): void;
  waitForRequests(count: number, timeoutMs?: number): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** Starts a provider fake for `wire`, requiring `apiKey` when one is given. */
export async function createFakeProvider(
  wire: ProviderWire,
  options: { apiKey?: string; models?: string[] } = {},
): Promise<FakeProvider> {
  const server = createFakeServer();
  const queue: FakeProviderReply[] = [];
  const models = options.models ?? ["fake-model"];
  let serial = 0;
  const denied = (ctx: RequestContext) =>
    options.apiKey === undefined ? undefined : wire.unauthorized(ctx, options.apiKey);

  server.route("GET", `${wire.basePath}${wire.list.path}`, (ctx) => denied(ctx) ?? { json: wire.list.answer(models) });
  server.route(wire.chat.method, wire.chat.path, (ctx) => {
    const refused = denied(ctx);
    if (refused) return refused;
    const request = ctx.json<Record<string, unknown>>();
    const seen = wire.images(request);
    if ("refusal" in seen) return { status: seen.refusal.status, json: seen.refusal.body };
    const reply = queue.shift() ?? { text: "ok" };
    serial += 1;
    const stream = wire.chat.stream(ctx);
    if ("status" in reply) return { status: reply.status, json: reply.body ?? wire.error(reply.status) };
    if ("stall" in reply) return stallAfterHeaders(stream ? "text/event-stream" : "application/json");
    return wire.answer(request, reply, serial, stream);
  });
  await server.start();
  const calls = () => server.requestsTo(wire.chat.method, wire.chat.path);
  return {
    url: `${server.url}${wire.basePath}`,
    server,
    get requests() {
      return calls().map((r) => r.body as Record<string, unknown>);
    },
    get paths() {
      return calls().map((r) => r.path);
    },
    get images() {
      return calls().flatMap((r, request) => {
        const seen = wire.images(r.body);
        return "images" in seen ? seen.images.map((image) => ({ ...image, request })) : [];
      });
    },
    script: (...replies) => {
      queue.push(...replies);
    },
    waitForRequests: (count, timeoutMs = 5000) =>
      waitFor(() => (calls().length >= count ? calls().map((r) => r.body as Record<string, unknown>) : undefined), {
        timeoutMs,
        message: `${count} model call(s) at the fake provider`,
      }),
    close: () => server.close(),
  };
}

/** Headers sent, the body never: a model server that stalls mid-answer. */
export function stallAfterHeaders(contentType: string): FakeResponse {
  return { status: 200, headers: { "content-type": contentType, "cache-control": "no-cache" }, stream: () => {} };
}

/** Server-Sent Events: `event:` (when named) and `data:` lines per event. */
export function sse(events: { event?: string; data: unknown }[]): string {
  return events
    .map(({ event, data }) => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`)
    .join("");
}
