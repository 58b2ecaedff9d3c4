import { contentFor, type McpContent } from "./content.js";
import {
  isRequest,
  JSON_RPC,
  JsonRpcError,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "./json-rpc.js";
import { negotiateProtocolVersion } from "./protocol-version.js";

/** A tool as `tools/list` shows it. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; [key: string]: unknown };
}

/** A `tools/call` answer: errors are results the agent can act on, never protocol errors. */
export interface McpToolResult {
  [key: string]: unknown;
  content: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What an MCP server of the gateway serves: its tools, and whether they changed. */
export interface McpToolSource {
  list(): McpTool[] | Promise<McpTool[]>;
  call(name: string, args: Record<string, unknown>): Promise<McpToolResult>;
}

/** What the server tells the agent about itself at initialisation. */
export const MCP_INSTRUCTIONS =
  "Chorus connects you to chat apps. Each message_<channel> (or message_<channel>_<account>) tool sends and reacts on one channel account; its description says that channel's rules. You call them from outside a conversation: always pass target (the conversation id, from an event or an earlier message), and messageId (from recent_messages or an event) to react; channel and account are the tool's own. list_channels shows the accounts, recent_messages the last messages of a conversation. Photos, voice notes and files people send carry a mediaId (on events and in recent_messages): get_media shows one, and media: [{ mediaId }] in a message tool sends it on. Errors come back as results with a code (E_UNSUPPORTED, E_EMOJI_REQUIRED, …) and often a hint.";

/** The name and version the server introduces itself with. */
export const MCP_SERVER_INFO = { name: "chorus", version: "1" } as const;

export interface McpServerOptions {
  /** The version in `serverInfo`. */
  version?: string;
  /** Where the server's notifications go (the session's stream); dropped when unset. */
  notify?: (notification: JsonRpcNotification) => void;
  /** Told of a handler's failure that is not a JSON-RPC error (the peer gets "Internal error"). */
  onError?: (error: unknown) => void;
}

type Handler = (params: Record<string, unknown>) => Promise<Record<string, unknown>> | Record<string, unknown>;

/**
 * The MCP server side of one session, transport-free: the lifecycle (`initialize` with version
 * negotiation, `ping`), `tools/list`, `tools/call`, and `notifications/tools/list_changed`.
 */
export class McpServer {
  /** The protocol version agreed at `initialize`. */
  protocolVersion: string | undefined;
  notify: ((notification: JsonRpcNotification) => void) | undefined;
  readonly #handlers: Record<string, Handler>;

  constructor(
    private readonly source: McpToolSource,
    private readonly options: McpServerOptions = {},
  ) {
    this.notify = options.notify;
    this.#handlers = {
      initialize: (params) => this.#initialize(params),
      ping: () => ({}),
      "tools/list": async (params) => {
        optionalString(params, "cursor");
        return { tools: await this.source.list() };
      },
      "tools/call": async (params) => {
        const name = params.name;
        if (typeof name !== "string" || name === "") throw invalidParams("params.name must be a tool name (a string)");
        const args = params.arguments ?? {};
        if (typeof args !== "object" || args === null || Array.isArray(args))
          throw invalidParams("params.arguments must be an object");
        const result = await this.source.call(name, args as Record<string, unknown>);
        // Audio and resource links only for a session whose revision has them.
        return { ...result, content: contentFor(result.content, this.protocolVersion) };
      },
    };
  }

  /** Answers one message: a response for a request, nothing for a notification or a response. */
  async handle(message: JsonRpcMessage): Promise<JsonRpcResponse | undefined> {
    // Notifications (`notifications/initialized`, `notifications/cancelled`, …) need nothing from us,
    // and we send no requests whose responses we would wait for.
    if (!isRequest(message)) return undefined;
    return this.#answer(message);
  }

  /** Tells the client the tool list changed. */
  toolsChanged(): void {
    this.notify?.({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
  }

  async #answer(request: JsonRpcRequest): Promise<JsonRpcResponse> {
    const handler = Object.hasOwn(this.#handlers, request.method) ? this.#handlers[request.method] : undefined;
    if (!handler)
      return new JsonRpcError(JSON_RPC.methodNotFound, `Method not found: ${request.method}`, request.id).toResponse();
    try {
      return { jsonrpc: "2.0", id: request.id, result: await handler(request.params ?? {}) };
    } catch (error) {
      if (error instanceof JsonRpcError) return new JsonRpcError(error.code, error.message, request.id).toResponse();
      this.options.onError?.(error);
      return new JsonRpcError(JSON_RPC.internalError, "Internal error", request.id).toResponse();
    }
  }

  #initialize(params: Record<string, unknown>): Record<string, unknown> {
    const requested = params.protocolVersion;
    if (typeof requested !== "string") throw invalidParams("params.protocolVersion must be a string");
    if (typeof params.capabilities !== "object" || params.capabilities === null)
      throw invalidParams("params.capabilities must be an object");
    const client = params.clientInfo as { name?: unknown } | undefined;
    if (typeof client !== "object" || client === null || typeof client.name !== "string")
      throw invalidParams("params.clientInfo must be an object with a name");
    this.protocolVersion = negotiateProtocolVersion(requested);
    return {
      protocolVersion: this.protocolVersion,
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: MCP_SERVER_INFO.name, version: this.options.version ?? MCP_SERVER_INFO.version },
      instructions: MCP_INSTRUCTIONS,
    };
  }
}

/** One MCP server (one per client session) over `source`. */
export function createMcpServer(source: McpToolSource, options: McpServerOptions = {}): McpServer {
  return new McpServer(source, options);
}

function invalidParams(problem: string): JsonRpcError {
  return new JsonRpcError(JSON_RPC.invalidParams, `Invalid params: ${problem}`);
}

function optionalString(params: Record<string, unknown>, key: string): void {
  if (params[key] !== undefined && typeof params[key] !== "string")
    throw invalidParams(`params.${key} must be a string`);
}
