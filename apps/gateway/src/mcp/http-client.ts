import {
  isNotification,
  isResponse,
  JsonRpcError,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcResponse,
  parseJsonRpcMessage,
} from "./json-rpc.js";
import { LATEST_PROTOCOL_VERSION } from "./protocol-version.js";
import { readSseEvents } from "./sse.js";

/** A failure to reach the server or keep the session (network, HTTP status): a new session may help. */
export class McpTransportError extends Error {
  constructor(
    message: string,
    /** The server surely did not act on the request (refused connection, unknown session): it may be sent again. */
    readonly notDelivered: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = "McpTransportError";
  }
}

export interface McpHttpClientOptions {
  /** The `/mcp` endpoint. */
  url: URL;
  /** Sent with every request (the bearer token). */
  headers: Record<string, string>;
  clientInfo: { name: string; version: string };
  /** The server's notifications, from its event stream or a streamed answer. */
  onNotification(notification: JsonRpcNotification): void;
}

const REQUEST_TIMEOUT_MS = 60_000;

/**
 * One client session of MCP's Streamable HTTP transport: `initialize`, then requests as POSTs
 * (answered with JSON or an event stream), and the GET event stream for the server's notifications.
 */
export class McpHttpClient {
  #sessionId: string | undefined;
  /** Sent as `MCP-Protocol-Version` once `initialize` agreed on it. */
  #protocolVersion: string | undefined;
  #nextId = 1;
  readonly #streamAbort = new AbortController();

  private constructor(private readonly options: McpHttpClientOptions) {}

  /** Opens a session: `initialize`, `notifications/initialized`, and the server's event stream. */
  static async connect(options: McpHttpClientOptions): Promise<McpHttpClient> {
    const client = new McpHttpClient(options);
    const result = await client.request("initialize", {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: options.clientInfo,
    });
    client.#protocolVersion =
      typeof result.protocolVersion === "string" ? result.protocolVersion : LATEST_PROTOCOL_VERSION;
    await client.notify("notifications/initialized");
    void client.#listen();
    return client;
  }

  /** Sends a request and resolves with its result; a JSON-RPC error rejects as a `JsonRpcError`. */
  async request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    const response = await this.#post({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
    const answer = await this.#answerOf(response, id);
    if ("error" in answer) throw new JsonRpcError(answer.error.code, answer.error.message);
    return answer.result;
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    const response = await this.#post({ jsonrpc: "2.0", method, ...(params ? { params } : {}) });
    await response.body?.cancel();
  }

  /** Ends the session (DELETE, best effort) and its event stream. */
  async close(): Promise<void> {
    this.#streamAbort.abort();
    if (!this.#sessionId) return;
    await fetch(this.options.url, {
      method: "DELETE",
      headers: this.#headers(),
      signal: AbortSignal.timeout(2_000),
    }).then(
      (response) => response.body?.cancel(),
      () => undefined,
    );
  }

  async #post(message: JsonRpcMessage): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(this.options.url, {
        method: "POST",
        headers: {
          ...this.#headers(),
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      const refused = (error as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED";
      throw new McpTransportError(`cannot reach ${this.options.url.origin}: ${describe(error)}`, refused);
    }
    if (!response.ok) {
      const detail = await response
        .json()
        .then((body) => (body as { error?: { message?: string } } | null)?.error?.message)
        .catch(() => undefined);
      // 404: the session is gone (a restarted gateway), so nothing ran.
      const status = response.status;
      throw new McpTransportError(`HTTP ${status}${detail ? `: ${detail}` : ""}`, status === 404, status);
    }
    const session = response.headers.get("mcp-session-id");
    if (session && !this.#sessionId) this.#sessionId = session;
    return response;
  }

  /** The response to request `id`, from a JSON answer or from an event stream (passing on notifications on it). */
  async #answerOf(response: Response, id: number): Promise<JsonRpcResponse> {
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("text/event-stream") && response.body) {
      for await (const event of readSseEvents(response.body)) {
        const message = this.#parse(event.data);
        if (message && isResponse(message) && message.id === id) {
          await response.body.cancel().catch(() => undefined);
          return message;
        }
        if (message && isNotification(message)) this.options.onNotification(message);
      }
      throw new McpTransportError(`the stream ended before the answer to request ${id}`, false);
    }
    const message = this.#parse(await response.text());
    if (!message || !isResponse(message) || message.id !== id)
      throw new McpTransportError(`the answer to request ${id} is not its JSON-RPC response`, false);
    return message;
  }

  /** Reads the server's event stream until the session ends (a server that offers none answers 405). */
  async #listen(): Promise<void> {
    try {
      const response = await fetch(this.options.url, {
        headers: { ...this.#headers(), accept: "text/event-stream" },
        signal: this.#streamAbort.signal,
      });
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        return;
      }
      for await (const event of readSseEvents(response.body)) {
        const message = this.#parse(event.data);
        if (message && isNotification(message)) this.options.onNotification(message);
      }
    } catch {
      // Closed by us, or the server went away: the next request finds out and opens a new session.
    }
  }

  #parse(text: string): JsonRpcMessage | undefined {
    try {
      return parseJsonRpcMessage(JSON.parse(text));
    } catch {
      return undefined;
    }
  }

  #headers(): Record<string, string> {
    return {
      ...this.options.headers,
      ...(this.#protocolVersion ? { "mcp-protocol-version": this.#protocolVersion } : {}),
      ...(this.#sessionId ? { "mcp-session-id": this.#sessionId } : {}),
    };
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
