import { type AddressInfo, createServer } from "node:net";
import { waitFor } from "@chorus/testkit";
import { type ServerType, serve } from "@hono/node-server";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpHttpClient, McpTransportError } from "./http-client.js";
import type { JsonRpcNotification } from "./json-rpc.js";

/**
 * Our client against the MCP SDK's own server, which answers requests with an event stream (as a
 * gateway before our own server did): the fidelity check of the client side of `chorus mcp`.
 */
describe("the MCP HTTP client against the SDK's Streamable HTTP server", () => {
  const sdkServer = new Server({ name: "sdk", version: "1" }, { capabilities: { tools: { listChanged: true } } });
  sdkServer.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: "echo", inputSchema: { type: "object" } }],
  }));
  sdkServer.setRequestHandler(CallToolRequestSchema, (request) => ({
    content: [{ type: "text", text: JSON.stringify(request.params.arguments) }],
  }));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID() });
  let server: ServerType;
  let url: URL;
  const notifications: JsonRpcNotification[] = [];
  const connect = (at = url) =>
    McpHttpClient.connect({
      url: at,
      headers: {},
      clientInfo: { name: "chorus-test", version: "1" },
      onNotification: (notification) => notifications.push(notification),
    });

  beforeAll(async () => {
    await sdkServer.connect(transport);
    await new Promise<void>((resolve) => {
      server = serve({ fetch: (request) => transport.handleRequest(request), hostname: "127.0.0.1", port: 0 }, () =>
        resolve(),
      );
    });
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });

  afterAll(async () => {
    await sdkServer.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it("initializes, lists and calls tools through streamed answers, and hears tools/list_changed on its stream", async () => {
    const client = await connect();
    expect(await client.request("tools/list")).toEqual({ tools: [{ name: "echo", inputSchema: { type: "object" } }] });
    expect(await client.request("tools/call", { name: "echo", arguments: { text: "hi" } })).toEqual({
      content: [{ type: "text", text: '{"text":"hi"}' }],
    });
    // The client opens its GET stream after initialize without waiting for it: notify until it hears.
    await waitFor(
      async () => {
        await sdkServer.sendToolListChanged();
        return notifications.some((n) => n.method === "notifications/tools/list_changed");
      },
      { timeoutMs: 5_000, intervalMs: 50, message: "tools/list_changed through the GET stream" },
    );
    await expect(client.request("resources/list")).rejects.toMatchObject({ code: -32601 });
    await client.close();
  });

  it("a gone session and a refused connection are transport errors the relay may send again", async () => {
    // The first test's DELETE closed the SDK transport's one session: it answers 404, as a restarted gateway does.
    const gone = await connect().catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(McpTransportError);
    expect(gone).toMatchObject({ status: 404, notDelivered: true });
    const refused = await connect(new URL(`http://127.0.0.1:${await closedPort()}/mcp`)).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ name: "McpTransportError", notDelivered: true });
    expect((refused as Error).message).toContain("ECONNREFUSED");
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
