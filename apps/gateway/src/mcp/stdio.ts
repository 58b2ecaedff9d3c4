import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { MCP_SERVER_INFO } from "./server.js";

/**
 * `chorus mcp`: an MCP server on stdin/stdout that is the gateway's `/mcp` endpoint, relayed —
 * tools, calls and `tools/list_changed` — so a stdio client (Claude Desktop, Claude Code) gets
 * exactly what an HTTP client gets. Resolves when the client closes stdin.
 */
export async function serveStdio(gateway: { url: string; token: string }, version: string): Promise<void> {
  const upstream = new Client({ name: "chorus-mcp-stdio", version });
  await upstream.connect(
    new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${gateway.token}` } },
    }),
  );
  const server = new Server(
    { name: MCP_SERVER_INFO.name, version },
    {
      capabilities: { tools: { listChanged: true } },
      ...(upstream.getInstructions() ? { instructions: upstream.getInstructions() } : {}),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => upstream.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => upstream.callTool(request.params));
  upstream.setNotificationHandler(ToolListChangedNotificationSchema, () => server.sendToolListChanged());
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  const transport = new StdioServerTransport();
  process.stdin.once("end", () => void server.close());
  await server.connect(transport);
  await closed;
  await upstream.close().catch(() => undefined);
}
