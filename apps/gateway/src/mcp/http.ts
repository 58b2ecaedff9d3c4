import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Logger } from "pino";

interface Session {
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
}

/** Sessions one gateway keeps at once; the oldest is closed beyond it. */
const MAX_SESSIONS = 100;

/**
 * `/mcp` on the gateway's server (Streamable HTTP): one MCP server per client session (the
 * `mcp-session-id` header), each told when the tools changed. Authentication is the API's
 * bearer token, checked before a request reaches here.
 */
export class McpHttpEndpoint {
  readonly #sessions = new Map<string, Session>();

  constructor(
    private readonly makeServer: () => Server,
    private readonly logger: Logger,
  ) {}

  /** Answers one request of the MCP Streamable HTTP transport. */
  async handle(request: Request): Promise<Response> {
    const id = request.headers.get("mcp-session-id");
    if (id) {
      const session = this.#sessions.get(id);
      if (!session) return jsonRpcError(404, "unknown or closed MCP session; initialize a new one");
      return session.transport.handleRequest(request);
    }
    if (request.method !== "POST") return jsonRpcError(400, "an MCP session starts with a POST of initialize");
    const server = this.makeServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        this.#sessions.set(sessionId, { server, transport });
        if (this.#sessions.size > MAX_SESSIONS) {
          const oldest = this.#sessions.keys().next().value;
          if (oldest !== undefined) void this.#close(oldest);
        }
      },
      onsessionclosed: (sessionId) => void this.#close(sessionId),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(request);
  }

  /** Tells every session the tool list changed. */
  toolsChanged(): void {
    for (const [id, session] of this.#sessions) {
      session.server.sendToolListChanged().catch((error: unknown) => {
        this.logger.debug({ err: (error as Error).message, session: id }, "could not notify an MCP session");
      });
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.#sessions.keys()].map((id) => this.#close(id)));
  }

  async #close(id: string): Promise<void> {
    const session = this.#sessions.get(id);
    this.#sessions.delete(id);
    await session?.server.close().catch(() => undefined);
  }
}

function jsonRpcError(status: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }), {
    status,
    headers: { "content-type": "application/json" },
  });
}
