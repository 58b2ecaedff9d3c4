import {
  createFakeServer,
  type FakeResponse,
  type FakeServer,
  type Fault,
  type RequestContext,
  waitFor,
} from "@chorus/testkit";
import { type FakeImage, openAIImages } from "./fake-images.js";
import {
  chatCompletion,
  chatCompletionStream,
  type FakeChatRequest,
  type FakeCompletion,
  type FakeToolCall,
  openAIError,
  requestProblems,
} from "./fake-openai-wire.js";
import { stallAfterHeaders } from "./fake-provider.js";

/** One scripted answer of the fake model server, consumed by one chat-completions request. */
export type FakeReply =
  /** A text answer (optionally with tool calls too). */
  | { text: string; toolCalls?: FakeToolCall[] }
  /** Tool calls (`finish_reason: "tool_calls"`). */
  | { toolCalls: FakeToolCall[]; text?: string }
  /** An HTTP error; `body` defaults to an OpenAI-style error object. */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** A 200 answer whose body is exactly this (garbage, truncated JSON, broken SSE). */
  | { raw: string }
  /** A 200 answer's headers (JSON or an event stream, as asked), then nothing until the server closes. */
  | { stall: true };

/** Options of `createFakeOpenAI`. */
export interface FakeOpenAIOptions {
  /** When set, every request must carry `Authorization: Bearer <apiKey>` (else 401). */
  apiKey?: string;
  /** Model ids `GET /v1/models` lists; default `["fake-model"]`. */
  models?: string[];
  /** The answer when the script is empty; default `ok`. */
  defaultText?: string;
  /** Called as a chat request arrives, before it is answered (a crash test kills its client here). */
  onRequest?(request: FakeChatRequest): void;
}

/** A stateful fake OpenAI-compatible server on 127.0.0.1, scripted reply by reply. */
export interface FakeOpenAI {
  /** The API base URL, `http://127.0.0.1:PORT/v1` (what `baseURL` takes). */
  readonly url: string;
  /** The underlying fake server (request log, fault injection, handler errors). */
  readonly server: FakeServer;
  /** The parsed bodies of every `POST /v1/chat/completions`, oldest first. */
  readonly requests: FakeChatRequest[];
  /** Every image the requests carried (`image_url` data URLs), decoded, oldest first. */
  readonly images: FakeImage[];
  /** Scripted replies not consumed yet. */
  readonly pending: number;
  /** Queues replies; each chat-completions request consumes the oldest one. */
  script(...replies: FakeReply[]): void;
  /** Injects a transport fault (hang, reset, delay, …) for the next matching request. */
  inject(fault: Fault): void;
  /** Resolves with the chat-completions requests once at least `count` arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<FakeChatRequest[]>;
  /** Forgets the script, the recorded requests and pending faults. */
  reset(): void;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

const CHAT_PATH = "/v1/chat/completions";

/** Starts a fake OpenAI-compatible server (`/v1/chat/completions`, `/v1/models`) on a free loopback port. */
export async function createFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const server = createFakeServer();
  const queue: FakeReply[] = [];
  const models = options.models ?? ["fake-model"];
  const defaultText = options.defaultText ?? "ok";
  let serial = 0;

  const unauthorized = (ctx: RequestContext): FakeResponse | undefined => {
    if (options.apiKey === undefined || ctx.headers.authorization === `Bearer ${options.apiKey}`) return undefined;
    const message = "Incorrect API key provided. You can find your API key in your account settings.";
    return { status: 401, json: openAIError(message, "invalid_request_error", "invalid_api_key") };
  };

  server.route("GET", "/v1/models", (ctx) => {
    const denied = unauthorized(ctx);
    if (denied) return denied;
    const created = Math.floor(Date.now() / 1000);
    return { json: { object: "list", data: models.map((id) => ({ id, object: "model", created, owned_by: "fake" })) } };
  });

  server.route("POST", CHAT_PATH, (ctx) => {
    const denied = unauthorized(ctx);
    if (denied) return denied;
    let body: unknown;
    try {
      body = JSON.parse(ctx.text());
    } catch {
      const message = "We could not parse the JSON body of your request.";
      return { status: 400, json: openAIError(message, "invalid_request_error") };
    }
    const problems = requestProblems(body);
    if (problems.length > 0) {
      return { status: 400, json: openAIError(problems.join("; "), "invalid_request_error") };
    }
    const request = body as FakeChatRequest;
    const seen = openAIImages(request);
    if ("refusal" in seen) return { status: seen.refusal.status, json: seen.refusal.body };
    options.onRequest?.(request);
    serial += 1;
    return answer(request, queue.shift() ?? { text: defaultText }, serial);
  });

  await server.start();
  const chatRequests = (): FakeChatRequest[] =>
    server.requestsTo("POST", CHAT_PATH).map((recorded) => recorded.body as FakeChatRequest);

  return {
    url: `${server.url}/v1`,
    server,
    get requests() {
      return chatRequests();
    },
    get images() {
      return chatRequests().flatMap((body, request) => {
        const seen = openAIImages(body);
        return "images" in seen ? seen.images.map((image) => ({ ...image, request })) : [];
      });
    },
    get pending() {
      return queue.length;
    },
    script: (...replies) => {
      queue.push(...replies);
    },
    inject: (fault) => server.inject({ ...fault, match: { path: CHAT_PATH, ...fault.match } }),
    waitForRequests: (count, timeoutMs = 5000) =>
      waitFor(() => (chatRequests().length >= count ? chatRequests() : undefined), {
        timeoutMs,
        message: `${count} chat completion request(s) at the fake OpenAI server`,
      }),
    reset: () => {
      queue.length = 0;
      server.reset();
    },
    close: () => server.close(),
  };
}

function answer(request: FakeChatRequest, reply: FakeReply, serial: number): FakeResponse {
  if ("status" in reply) {
    return { status: reply.status, headers: { ...reply.headers }, json: reply.body ?? statusError(reply.status) };
  }
  const stream = request.stream === true;
  const contentType = stream ? "text/event-stream; charset=utf-8" : "application/json; charset=utf-8";
  if ("stall" in reply) return stallAfterHeaders(contentType);
  if ("raw" in reply) {
    return { status: 200, headers: { "content-type": contentType }, body: reply.raw };
  }
  const completion: FakeCompletion = reply;
  const meta = { serial, model: request.model, created: Math.floor(Date.now() / 1000) };
  if (!stream) return { status: 200, json: chatCompletion(request, completion, meta) };
  return {
    status: 200,
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
    body: chatCompletionStream(request, completion, meta),
  };
}

function statusError(status: number): object {
  if (status === 429) {
    return openAIError("Rate limit reached for requests. Please try again later.", "requests", "rate_limit_exceeded");
  }
  if (status === 401) return openAIError("Incorrect API key provided.", "invalid_request_error", "invalid_api_key");
  if (status === 404) return openAIError("The model does not exist.", "invalid_request_error", "model_not_found");
  if (status >= 500) return openAIError("The server had an error while processing your request.", "server_error");
  return openAIError(`The request failed with HTTP ${status}.`, "invalid_request_error");
}
