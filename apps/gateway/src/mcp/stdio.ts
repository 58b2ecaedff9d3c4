import { McpHttpClient, McpTransportError } from "./http-client.js";
import { JSON_RPC, JsonRpcError } from "./json-rpc.js";
import { McpServer, type McpTool, type McpToolResult } from "./server.js";
import { serveStdioTransport } from "./stdio-transport.js";

/**
 * `chorus mcp`: an MCP server on stdin/stdout that is the gateway's `/mcp` endpoint, relayed —
 * tools, calls and `tools/list_changed` — so a stdio client (Claude Desktop, Claude Code) gets
 * exactly what an HTTP client gets. When the gateway restarted (its session is gone), the next
 * request opens a new session and the client is told the tools may have changed. Resolves when
 * the client closes stdin.
 */
export async function serveStdio(gateway: { url: string; token: string }, version: string): Promise<void> {
  const open = () =>
    McpHttpClient.connect({
      url: new URL(`${gateway.url}/mcp`),
      headers: { authorization: `Bearer ${gateway.token}` },
      clientInfo: { name: "chorus-mcp-stdio", version },
      onNotification: (notification) => {
        if (notification.method === "notifications/tools/list_changed") server.toolsChanged();
      },
    });
  let upstream: McpHttpClient | undefined;
  /**
   * Runs a request upstream. After a transport failure the next request opens a new session (and
   * the client hears the tools may have changed); a request the gateway surely did not act on (its
   * session is gone after a restart, or the connection was refused) is sent again right away.
   */
  const relay = async (request: (client: McpHttpClient) => Promise<Record<string, unknown>>) => {
    if (upstream) {
      try {
        return await request(upstream);
      } catch (error) {
        if (!(error instanceof McpTransportError)) throw error;
        void upstream.close();
        upstream = undefined;
        if (!error.notDelivered) throw error;
      }
    }
    upstream = await open();
    server.toolsChanged();
    return request(upstream);
  };
  const unreachable = (error: unknown) =>
    `the Chorus gateway at ${gateway.url} does not answer: ${(error as Error).message}`;

  const server = new McpServer(
    {
      list: async () => {
        try {
          return (await relay((c) => c.request("tools/list"))).tools as McpTool[];
        } catch (error) {
          if (error instanceof McpTransportError) throw new JsonRpcError(JSON_RPC.internalError, unreachable(error));
          throw error;
        }
      },
      call: async (name, args) => {
        try {
          return (await relay((c) => c.request("tools/call", { name, arguments: args }))) as McpToolResult;
        } catch (error) {
          if (!(error instanceof McpTransportError)) throw error;
          // Still no gateway: an error the agent can read, as every tool error.
          const body = {
            ok: false,
            error: { code: "E_DISABLED", message: unreachable(error), hint: "Start it with `chorus start`." },
          };
          return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body, isError: true };
        }
      },
    },
    { version },
  );
  upstream = await open();
  await serveStdioTransport(server, process.stdin, process.stdout);
  await upstream?.close();
}
