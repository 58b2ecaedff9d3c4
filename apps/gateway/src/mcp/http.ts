import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { isRequest, JSON_RPC, JsonRpcError, type JsonRpcMessage, parseJsonRpcBody } from "./json-rpc.js";
import { isSupportedProtocolVersion, SUPPORTED_PROTOCOL_VERSIONS } from "./protocol-version.js";
import type { McpServer } from "./server.js";
import { SSE_HEADERS, SSE_KEEP_ALIVE, sseEvent } from "./sse.js";

/** Sessions one gateway keeps at once; the oldest is closed beyond it. */
const MAX_SESSIONS = 100;
const KEEP_ALIVE_MS = 15_000;
/** The code the MCP SDKs use for a session that is unknown or closed. */
const SESSION_NOT_FOUND = -32001;
/** A transport-level refusal (JSON-RPC's range for implementation-defined server errors). */
const TRANSPORT_ERROR = -32000;

interface Session {
  server: McpServer;
  /** The open GET stream (server → client), where `tools/list_changed` goes. */
  stream?: { write(text: string): void; close(): void } | undefined;
}

/**
 * `/mcp` on the gateway's server: MCP's Streamable HTTP transport (revision 2025-06-18). A POST
 * carries a JSON-RPC message (or a batch) and is answered with JSON, or 202 when it holds no
 * request; `initialize` opens a session (`Mcp-Session-Id`), required on every later request; a GET
 * opens the session's event stream; a DELETE ends it. Authentication is the API's bearer token,
 * checked before a request reaches here.
 */
export class McpHttpEndpoint {
  readonly #sessions = new Map<string, Session>();

  constructor(
    private readonly makeServer: () => McpServer,
    private readonly logger: Logger,
  ) {}

  /** Answers one request of the MCP Streamable HTTP transport. */
  async handle(request: Request): Promise<Response> {
    try {
      if (request.method === "POST") return await this.#post(request);
      if (request.method === "GET") return this.#get(request);
      if (request.method === "DELETE") return this.#delete(request);
      return refusal(405, TRANSPORT_ERROR, `Method not allowed: ${request.method}`, { allow: "GET, POST, DELETE" });
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, "MCP request failed");
      return refusal(500, JSON_RPC.internalError, "Internal error");
    }
  }

  /** Tells every session the tool list changed. */
  toolsChanged(): void {
    for (const session of this.#sessions.values()) session.server.toolsChanged();
  }

  async close(): Promise<void> {
    for (const id of [...this.#sessions.keys()]) this.#close(id);
  }

  async #post(request: Request): Promise<Response> {
    const accept = request.headers.get("accept") ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream"))
      return refusal(
        406,
        TRANSPORT_ERROR,
        "Not Acceptable: the client must accept application/json and text/event-stream",
      );
    const type = request.headers.get("content-type") ?? "";
    if (type.split(";")[0]?.trim().toLowerCase() !== "application/json")
      return refusal(415, TRANSPORT_ERROR, "Unsupported Media Type: Content-Type must be application/json");
    let messages: JsonRpcMessage[];
    let batch: boolean;
    try {
      ({ messages, batch } = parseJsonRpcBody(await request.text()));
    } catch (error) {
      if (error instanceof JsonRpcError) return json(400, error.toResponse());
      throw error;
    }
    const initialize = messages.find((m) => isRequest(m) && m.method === "initialize");
    if (initialize && batch)
      return refusal(400, JSON_RPC.invalidRequest, "Invalid Request: initialize must be sent alone, not in a batch");
    if (initialize) {
      if (request.headers.has("mcp-session-id"))
        return refusal(400, JSON_RPC.invalidRequest, "Invalid Request: this session is already initialized");
      return this.#initialize(messages[0] as JsonRpcMessage);
    }
    const found = this.#session(request);
    if (found instanceof Response) return found;
    const answers = (await Promise.all(messages.map((m) => found.server.handle(m)))).filter((a) => a !== undefined);
    if (answers.length === 0) return new Response(null, { status: 202 });
    return json(200, batch ? answers : answers[0]);
  }

  async #initialize(message: JsonRpcMessage): Promise<Response> {
    const id = randomUUID();
    const session: Session = { server: this.makeServer() };
    const answer = await session.server.handle(message);
    if (!answer || "error" in answer) return json(200, answer);
    session.server.notify = (notification) => session.stream?.write(sseEvent(notification));
    this.#sessions.set(id, session);
    if (this.#sessions.size > MAX_SESSIONS) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest !== undefined) this.#close(oldest);
    }
    return json(200, answer, { "mcp-session-id": id });
  }

  #get(request: Request): Response {
    if (!(request.headers.get("accept") ?? "").includes("text/event-stream"))
      return refusal(406, TRANSPORT_ERROR, "Not Acceptable: the client must accept text/event-stream");
    const session = this.#session(request);
    if (session instanceof Response) return session;
    if (session.stream)
      return refusal(409, TRANSPORT_ERROR, "Conflict: this session already has its stream open (one per session)");
    const encoder = new TextEncoder();
    let keepAlive: NodeJS.Timeout | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        const stream = {
          write: (text: string) => {
            try {
              controller.enqueue(encoder.encode(text));
            } catch {
              stream.close();
            }
          },
          close: () => {
            clearInterval(keepAlive);
            if (session.stream === stream) session.stream = undefined;
            try {
              controller.close();
            } catch {
              // Already closed by the client.
            }
          },
        };
        session.stream = stream;
        keepAlive = setInterval(() => stream.write(SSE_KEEP_ALIVE), KEEP_ALIVE_MS);
        keepAlive.unref();
      },
      cancel: () => {
        clearInterval(keepAlive);
        session.stream = undefined;
      },
    });
    return new Response(body, { headers: SSE_HEADERS });
  }

  #delete(request: Request): Response {
    const session = this.#session(request);
    if (session instanceof Response) return session;
    this.#close(request.headers.get("mcp-session-id") as string);
    return new Response(null, { status: 200 });
  }

  /** The request's session, or the refusal to answer: 400 without one, 404 for an unknown or closed one. */
  #session(request: Request): Session | Response {
    const id = request.headers.get("mcp-session-id");
    if (!id)
      return refusal(
        400,
        TRANSPORT_ERROR,
        "Bad Request: Mcp-Session-Id header is required (initialize opens a session)",
      );
    const session = this.#sessions.get(id);
    if (!session) return refusal(404, SESSION_NOT_FOUND, "Session not found: unknown or closed; initialize a new one");
    const version = request.headers.get("mcp-protocol-version");
    if (version !== null && !isSupportedProtocolVersion(version))
      return refusal(
        400,
        TRANSPORT_ERROR,
        `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version)} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`,
      );
    return session;
  }

  #close(id: string): void {
    const session = this.#sessions.get(id);
    this.#sessions.delete(id);
    session?.stream?.close();
  }
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

function refusal(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return json(status, { jsonrpc: "2.0", id: null, error: { code, message } }, headers);
}
