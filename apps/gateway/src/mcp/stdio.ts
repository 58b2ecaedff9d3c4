import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { MCP_INSTRUCTIONS, MCP_SERVER_INFO } from "./server.js";

/**
 * `chorus mcp`: an MCP server on stdin/stdout that is the gateway's `/mcp` endpoint, relayed —
 * tools, calls and `tools/list_changed` — so a stdio client (Claude Desktop, Claude Code) gets
 * exactly what an HTTP client gets. When the gateway restarted (its session is gone), the next
 * request opens a new session and the client is told the tools may have changed. Resolves when
 * the client closes stdin.
 */
export async function serveStdio(gateway: { url: string; token: string }, version: string): Promise<void> {
  let upstream: Client | undefined;
  const server = new Server(
    { name: MCP_SERVER_INFO.name, version },
    { capabilities: { tools: { listChanged: true } }, instructions: MCP_INSTRUCTIONS },
  );
  const connect = async (): Promise<Client> => {
    const client = new Client({ name: "chorus-mcp-stdio", version });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => server.sendToolListChanged());
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${gateway.token}` } },
      }),
    );
    return client;
  };
  /** Runs a request upstream; on a transport failure (a restarted gateway) once more on a new session. */
  const relay = async <T>(request: (client: Client) => Promise<T>): Promise<T> => {
    upstream ??= await connect();
    try {
      return await request(upstream);
    } catch {
      await upstream.close().catch(() => undefined);
      upstream = await connect();
      void server.sendToolListChanged().catch(() => undefined);
      return request(upstream);
    }
  };
  upstream = await connect();
  server.setRequestHandler(ListToolsRequestSchema, (request) => relay((c) => c.listTools(request.params)));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    try {
      return await relay((c) => c.callTool(request.params));
    } catch (error) {
      // Still no gateway: an error the agent can read, as every tool error.
      const body = {
        ok: false,
        error: {
          code: "E_DISABLED",
          message: `the Chorus gateway at ${gateway.url} does not answer: ${(error as Error).message}`,
          hint: "Start it with `chorus start`.",
        },
      };
      return {
        content: [{ type: "text" as const, text: JSON.stringify(body) }],
        structuredContent: body,
        isError: true,
      };
    }
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  process.stdin.once("end", () => void server.close());
  await server.connect(new StdioServerTransport());
  await closed;
  await upstream?.close().catch(() => undefined);
}
