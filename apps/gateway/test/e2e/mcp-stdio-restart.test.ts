import { createServer } from "node:net";
import { join } from "node:path";
import { createMemoryPlatform, type MemoryPlatform, waitFor } from "@chorus/testkit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, FIXTURES, type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";

/** A port nothing listens on now (the gateway takes it, and takes it again after its restart). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("chorus mcp across a gateway restart", () => {
  let platform: MemoryPlatform;
  let gateway: GatewayProcess;
  let client: Client;
  let config: Record<string, unknown>;

  beforeAll(async () => {
    platform = createMemoryPlatform();
    await platform.start();
    platform.addConversation({ id: "team", kind: "group", members: [{ id: "ann", name: "Ann" }] });
    config = {
      gateway: { port: await freePort() },
      plugins: { load: [join(FIXTURES, "memory-channel")] },
      channels: {
        memory: { baseUrl: platform.url, token: platform.token, pollWaitMs: 2000 },
        webchat: { enabled: false },
      },
    };
    gateway = await startGatewayProcess({ config });
    client = new Client({ name: "test", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "mcp", "--no-start"],
        env: { ...(process.env as Record<string, string>), CHORUS_HOME: gateway.home, CHORUS_CONFIG: "" },
        stderr: "pipe",
      }),
    );
  }, 30_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
    await platform?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("the next call after a restart goes to the new gateway, and the client hears the tools may have changed", async () => {
    const send = (text: string) =>
      client.callTool({ name: "message_memory", arguments: { action: "send", target: "team", text } });
    await waitFor(async () => (await client.listTools()).tools.some((t) => t.name === "message_memory"), {
      timeoutMs: 10_000,
      intervalMs: 100,
      message: "the memory tool",
    });
    expect((await send("before")).isError).toBeFalsy();
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });

    expect(await gateway.stop()).toBe(0);
    const down = await send("while down");
    expect(down.isError).toBe(true);
    expect(JSON.stringify(down.content)).toContain("E_DISABLED");
    gateway = await startGatewayProcess({ home: gateway.home, config });
    await waitFor(async () => !(await send("after")).isError, {
      timeoutMs: 10_000,
      intervalMs: 100,
      message: "a send through the restarted gateway",
    });
    expect(platform.messagesIn("team").map((m) => m.text)).toEqual(expect.arrayContaining(["before", "after"]));
    expect(platform.messagesIn("team").map((m) => m.text)).not.toContain("while down");
    await waitFor(() => changes > 0, { message: "tools/list_changed after the new session" });
  }, 40_000);
});
