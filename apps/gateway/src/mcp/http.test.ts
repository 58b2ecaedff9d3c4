import type { AddressInfo } from "node:net";
import { waitFor } from "@chorus/testkit";
import { type ServerType, serve } from "@hono/node-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { McpHttpEndpoint } from "./http.js";
import { McpServer, type McpTool, type McpToolSource } from "./server.js";
import { readSseEvents } from "./sse.js";

const ECHO: McpTool = {
  name: "echo",
  description: "Says back what it gets.",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
};

/** The endpoint on a real HTTP server on 127.0.0.1, with one tool that says back its arguments. */
describe("the MCP Streamable HTTP endpoint", () => {
  const tools: McpToolSource = {
    list: () => [ECHO],
    call: async (name, args) => ({ content: [{ type: "text", text: JSON.stringify({ name, args }) }] }),
  };
  const endpoint = new McpHttpEndpoint(() => new McpServer(tools, { version: "9.9.9" }), pino({ level: "silent" }));
  let server: ServerType;
  let url: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = serve({ fetch: (request) => endpoint.handle(request), hostname: "127.0.0.1", port: 0 }, () => resolve());
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
  });

  afterAll(async () => {
    await endpoint.close();
    await new Promise((resolve) => server.close(resolve));
  });

  async function sdkClient(): Promise<Client> {
    const client = new Client({ name: "test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    clients.push(client);
    return client;
  }

  const JSON_AND_SSE = { accept: "application/json, text/event-stream", "content-type": "application/json" };

  /** A raw POST of `body` (a string is sent as is). */
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: "POST",
      headers: { ...JSON_AND_SSE, ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  const errorOf = async (response: Response) =>
    ((await response.json()) as { error: { code: number; message: string } }).error;

  const initialize = (protocolVersion: string) =>
    post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });

  /** A raw session: its id, and the headers every later request carries. */
  async function rawSession(protocolVersion = "2025-06-18") {
    const response = await initialize(protocolVersion);
    const id = response.headers.get("mcp-session-id") as string;
    expect(id).toBeTruthy();
    return { id, headers: { "mcp-session-id": id, "mcp-protocol-version": protocolVersion } };
  }

  it("serves the SDK's own client: initialize, tools/list, tools/call, ping", async () => {
    const client = await sdkClient();
    expect(client.getServerVersion()).toEqual({ name: "chorus", version: "9.9.9" });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: true } });
    expect(client.getInstructions()).toContain("Chorus connects you to chat apps");
    expect((await client.listTools()).tools).toEqual([ECHO]);
    const result = await client.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify({ name: "echo", args: { text: "hi" } }) }]);
    expect(await client.ping()).toEqual({});
  });

  it("sends tools/list_changed on the session's GET stream to the SDK's client", async () => {
    const client = await sdkClient();
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    // The SDK opens its GET stream after initialize, without waiting for it: notify until it is there.
    await waitFor(
      () => {
        endpoint.toolsChanged();
        return changes > 0;
      },
      { timeoutMs: 5_000, intervalMs: 50, message: "tools/list_changed at the SDK client" },
    );
  });

  it("answers the client's protocol version when it speaks it, otherwise its latest", async () => {
    for (const [asked, answered] of [
      ["2024-11-05", "2024-11-05"],
      ["2025-03-26", "2025-03-26"],
      ["2025-06-18", "2025-06-18"],
      ["2099-01-01", "2025-06-18"],
    ]) {
      const response = await initialize(asked as string);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: 1, result: { protocolVersion: answered } });
    }
  });

  it("refuses an MCP-Protocol-Version it does not speak with 400", async () => {
    const { headers } = await rawSession();
    const response = await post(
      { jsonrpc: "2.0", id: 2, method: "ping" },
      { ...headers, "mcp-protocol-version": "1999-01-01" },
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toContain("1999-01-01");
  });

  it("a body that is not JSON is a parse error (-32700), a message that is not JSON-RPC an invalid request (-32600)", async () => {
    const { headers } = await rawSession();
    const garbled = await post("{not json", headers);
    expect(garbled.status).toBe(400);
    expect(await garbled.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    const noVersion = await post({ id: 3, method: "ping" }, headers);
    expect(noVersion.status).toBe(400);
    expect(await noVersion.json()).toMatchObject({
      id: 3,
      error: { code: -32600, message: expect.stringContaining("jsonrpc") },
    });
    const badParams = await post({ jsonrpc: "2.0", id: 4, method: "ping", params: [1] }, headers);
    expect(await badParams.json()).toMatchObject({
      error: { code: -32600, message: expect.stringContaining("params") },
    });
  });

  it("an unknown method is -32601, bad params -32602 naming the field", async () => {
    const { headers } = await rawSession();
    const unknown = await post({ jsonrpc: "2.0", id: 5, method: "resources/list" }, headers);
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual({
      jsonrpc: "2.0",
      id: 5,
      error: { code: -32601, message: "Method not found: resources/list" },
    });
    const noName = await post({ jsonrpc: "2.0", id: 6, method: "tools/call", params: { arguments: {} } }, headers);
    expect(await noName.json()).toMatchObject({
      id: 6,
      error: { code: -32602, message: expect.stringContaining("params.name") },
    });
    const badArgs = await post(
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: "text" } },
      headers,
    );
    expect(await badArgs.json()).toMatchObject({
      error: { code: -32602, message: expect.stringContaining("params.arguments") },
    });
    const badInit = await post({ jsonrpc: "2.0", id: 8, method: "initialize", params: { capabilities: {} } });
    expect(await badInit.json()).toMatchObject({
      error: { code: -32602, message: expect.stringContaining("params.protocolVersion") },
    });
    expect(badInit.headers.get("mcp-session-id")).toBeNull();
  });

  it("a notification or a response is accepted with 202 and no body", async () => {
    const { headers } = await rawSession();
    const initialized = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    expect(initialized.status).toBe(202);
    expect(await initialized.text()).toBe("");
    const response = await post({ jsonrpc: "2.0", id: 99, result: {} }, headers);
    expect(response.status).toBe(202);
  });

  it("a batch (2025-03-26) is answered with an array of the requests' responses", async () => {
    const { headers } = await rawSession("2025-03-26");
    const response = await post(
      [
        { jsonrpc: "2.0", id: "a", method: "ping" },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: "b", method: "tools/list" },
      ],
      headers,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      { jsonrpc: "2.0", id: "a", result: {} },
      { jsonrpc: "2.0", id: "b", result: { tools: [ECHO] } },
    ]);
    const initInBatch = await post([{ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }]);
    expect(initInBatch.status).toBe(400);
    expect(await errorOf(initInBatch)).toMatchObject({ code: -32600, message: expect.stringContaining("batch") });
  });

  it("requires the session: 400 without Mcp-Session-Id, 404 for an unknown one, 404 after DELETE", async () => {
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    const without = await post(ping);
    expect(without.status).toBe(400);
    expect((await errorOf(without)).message).toContain("Mcp-Session-Id");
    const unknown = await post(ping, { "mcp-session-id": "no-such-session" });
    expect(unknown.status).toBe(404);
    const { headers } = await rawSession();
    expect((await post(ping, headers)).status).toBe(200);
    const deleted = await fetch(url, { method: "DELETE", headers });
    expect(deleted.status).toBe(200);
    expect((await post(ping, headers)).status).toBe(404);
    expect((await fetch(url, { method: "DELETE", headers })).status).toBe(404);
    expect((await fetch(url, { headers: { accept: "text/event-stream" } })).status).toBe(400);
  });

  it("checks Accept and Content-Type, and answers other methods with 405", async () => {
    const { headers } = await rawSession();
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const jsonOnly = await fetch(url, {
      method: "POST",
      headers: { ...headers, accept: "application/json", "content-type": "application/json" },
      body: ping,
    });
    expect(jsonOnly.status).toBe(406);
    const text = await fetch(url, {
      method: "POST",
      headers: { ...headers, ...JSON_AND_SSE, "content-type": "text/plain" },
      body: ping,
    });
    expect(text.status).toBe(415);
    const getJson = await fetch(url, { headers: { ...headers, accept: "application/json" } });
    expect(getJson.status).toBe(406);
    const put = await fetch(url, { method: "PUT", headers, body: ping });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST, DELETE");
  });

  it("the GET stream carries tools/list_changed as an SSE message event; one stream per session", async () => {
    const { headers } = await rawSession();
    const stream = await fetch(url, { headers: { ...headers, accept: "text/event-stream" } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    const second = await fetch(url, { headers: { ...headers, accept: "text/event-stream" } });
    expect(second.status).toBe(409);
    endpoint.toolsChanged();
    const events = readSseEvents(stream.body as ReadableStream<Uint8Array>);
    const first = await events.next();
    expect(first.value).toEqual({
      event: "message",
      data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }),
    });
    // DELETE ends the stream.
    await fetch(url, { method: "DELETE", headers });
    expect((await events.next()).done).toBe(true);
  });

  it("keeps at most 100 sessions: the oldest is closed", async () => {
    const oldest = await rawSession();
    for (let i = 0; i < 100; i++) await rawSession();
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    expect((await post(ping, oldest.headers)).status).toBe(404);
  });
});
