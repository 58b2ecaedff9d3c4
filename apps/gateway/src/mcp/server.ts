import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/** What an MCP server of the gateway serves: its tools, and whether they changed. */
export interface McpToolSource {
  list(): { name: string; description: string; inputSchema: { type: "object"; [key: string]: unknown } }[];
  call(
    name: string,
    args: unknown,
  ): Promise<{ [key: string]: unknown; content: { type: "text"; text: string }[]; isError?: boolean }>;
}

/** What the server tells the agent about itself at initialisation. */
export const MCP_INSTRUCTIONS =
  "Chorus connects you to chat apps. Each message_<channel> (or message_<channel>_<account>) tool sends and reacts on one channel account; its description says that channel's rules. You call them from outside a conversation: always pass target (the conversation id, from an event or an earlier message), and messageId (from recent_messages or an event) to react; channel and account are the tool's own. list_channels shows the accounts, recent_messages the last messages of a conversation. Errors come back as results with a code (E_UNSUPPORTED, E_EMOJI_REQUIRED, …) and often a hint.";

/** The name and version the server introduces itself with. */
export const MCP_SERVER_INFO = { name: "chorus", version: "1" } as const;

/** One MCP server (one per client session) over `source`; `tools/list_changed` is sent through `notifyChanged`. */
export function createMcpServer(source: McpToolSource, version: string = MCP_SERVER_INFO.version): Server {
  const server = new Server(
    { name: MCP_SERVER_INFO.name, version },
    {
      capabilities: { tools: { listChanged: true } },
      instructions: MCP_INSTRUCTIONS,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: source.list() }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    source.call(request.params.name, request.params.arguments ?? {}),
  );
  return server;
}
