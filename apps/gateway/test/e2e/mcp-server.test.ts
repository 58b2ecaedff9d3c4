import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import nextcloudPlugin from "@chorus/channel-nextcloud";
import { createFakeTalk, type FakeTalk } from "@chorus/channel-nextcloud/testing";
import telegramPlugin from "@chorus/channel-telegram";
import { createFakeTelegram, type FakeTelegram } from "@chorus/channel-telegram/testing";
import { buildMessageTool, type ChannelPlugin, type ReactionLevel } from "@chorus/core";
import { createMemoryChannel, createMemoryPlatform, type MemoryPlatform, waitFor } from "@chorus/testkit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, FIXTURES, type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { openEvents } from "../support/sse-client.js";

const TELEGRAM = fileURLToPath(new URL("../../../../packages/channel-telegram", import.meta.url));
const NEXTCLOUD = fileURLToPath(new URL("../../../../packages/channel-nextcloud", import.meta.url));
const SECRET = "nextcloud-shared-secret-0123456789abcdef";
const GROUP = -1002000000001;
const ANN = { id: 501, is_bot: false as const, first_name: "Ann" };

interface ResultBody {
  ok: boolean;
  op?: string;
  error: { code: string; message: string; hint?: string };
  channels: { id: string; account: string; tool: string | null; reactionLevel: string; actions: string[] }[];
  messages: { messageId: string; fromBot: boolean; text?: string; sender?: { id: string; name?: string } }[];
}
type ToolResult = { isError?: boolean; structuredContent: ResultBody; content: { type: string; text: string }[] };

describe("the MCP server: real SDK clients over Streamable HTTP and stdio against a real gateway", () => {
  let platform: MemoryPlatform;
  let telegram: FakeTelegram;
  let talk: FakeTalk;
  let gateway: GatewayProcess;
  const clients: Client[] = [];

  beforeAll(async () => {
    platform = createMemoryPlatform();
    await platform.start();
    platform.addConversation({ id: "team", kind: "group", title: "Team", members: [{ id: "ann", name: "Ann" }] });
    telegram = createFakeTelegram();
    await telegram.start();
    telegram.addChat({ id: GROUP, type: "supergroup", title: "Family" });
    talk = createFakeTalk();
    await talk.start();
    const memory = { baseUrl: platform.url, token: platform.token, pollWaitMs: 2000, groupPolicy: "open" };
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [join(FIXTURES, "memory-channel"), join(FIXTURES, "flaky-channel"), TELEGRAM, NEXTCLOUD] },
        channels: {
          memory: { accounts: { default: memory, quiet: { ...memory, reactionLevel: "off" } } },
          flaky: { baseUrl: platform.url, token: platform.token, pollWaitMs: 2000, retries: 0 },
          telegram: telegram.config(),
          nextcloud: { baseUrl: talk.url, secret: SECRET, botName: "Chorus" },
          webchat: { enabled: false },
        },
      },
      env: { CHORUS_RESTART_BACKOFF_MS: "800" },
    });
  }, 30_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await gateway?.stop();
    await Promise.all([platform?.close(), telegram?.close(), talk?.close()]);
    if (gateway) await removeHome(gateway.home);
  });

  async function httpClient(): Promise<Client> {
    const client = new Client({ name: "test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${gateway.token}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  async function stdioClient(): Promise<Client> {
    const client = new Client({ name: "test-stdio", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "mcp", "--url", gateway.url, "--token", gateway.token, "--no-start"],
        env: { ...(process.env as Record<string, string>), CHORUS_HOME: gateway.home, CHORUS_CONFIG: "" },
        stderr: "pipe",
      }),
    );
    clients.push(client);
    return client;
  }

  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as unknown as ToolResult;

  /** Waits until every account runs (the flaky one fails its first start). */
  const allUp = (client: Client) =>
    waitFor(
      async () => {
        const names = (await client.listTools()).tools.map((t) => t.name);
        return [
          "message_memory",
          "message_memory_quiet",
          "message_flaky",
          "message_telegram",
          "message_nextcloud",
        ].every((n) => names.includes(n))
          ? names
          : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 100, message: "every channel account's message tool" },
    );

  for (const transport of ["Streamable HTTP", "stdio"] as const) {
    describe(`over ${transport}`, () => {
      let client: Client;
      beforeAll(async () => {
        client = transport === "stdio" ? await stdioClient() : await httpClient();
        await allUp(client);
      }, 30_000);

      it("lists one message tool per channel account with core's schema for its flags and reactionLevel", async () => {
        const tools = (await client.listTools()).tools;
        const byName = new Map(tools.map((t) => [t.name, t]));
        expect([...byName.keys()]).toEqual(expect.arrayContaining(["list_channels", "recent_messages"]));
        const props = (name: string) => Object.keys((byName.get(name)?.inputSchema.properties ?? {}) as object);
        const actions = (name: string) =>
          (byName.get(name)?.inputSchema.properties as { action?: { enum: string[] } } | undefined)?.action?.enum;
        // Nextcloud Talk is add-only: no removal at all in its schema, and the description says so.
        expect(props("message_nextcloud")).toContain("emoji");
        expect(props("message_nextcloud")).not.toContain("remove");
        expect(props("message_nextcloud")).not.toContain("clearAll");
        expect(byName.get("message_nextcloud")?.description).toContain("Reactions cannot be removed here");
        // Telegram holds one reaction per message.
        expect(byName.get("message_telegram")?.description).toContain("One reaction per message");
        // An account at reactionLevel off has no react.
        expect(actions("message_memory_quiet")).toEqual(["send"]);
        expect(props("message_memory_quiet")).not.toContain("emoji");
        expect(actions("message_memory")).toContain("react");
        // Schema and description are core's, exactly as the built-in agent gets them for that channel and level.
        const core = (plugin: ChannelPlugin<unknown>, reactionLevel?: ReactionLevel) =>
          buildMessageTool({
            capabilities: plugin.capabilities,
            channel: plugin.label,
            ...(reactionLevel ? { reactionLevel } : {}),
            ...(plugin.vocabulary ? { vocabulary: plugin.vocabulary } : {}),
          });
        const withoutLinkMedia = (plugin: ChannelPlugin<unknown>): ChannelPlugin<unknown> => {
          const { media: _linkOnly, ...capabilities } = plugin.capabilities;
          return { ...plugin, capabilities };
        };
        const memory = createMemoryChannel() as ChannelPlugin<unknown>;
        for (const [name, expected] of [
          ["message_telegram", core(telegramPlugin as ChannelPlugin<unknown>)],
          // Talk sends media only as links, and this gateway has no gateway.publicUrl to link to: no media.
          ["message_nextcloud", core(withoutLinkMedia(nextcloudPlugin as ChannelPlugin<unknown>))],
          ["message_memory", core(memory)],
          ["message_memory_quiet", core(memory, "off")],
        ] as const) {
          expect(byName.get(name)?.description).toBe(expected.description);
          expect(byName.get(name)?.inputSchema).toEqual(expected.jsonSchema);
        }
      });

      it("list_channels names the accounts, their state and their tool", async () => {
        const result = await call(client, "list_channels", {});
        expect(result.isError).toBeFalsy();
        const quiet = result.structuredContent.channels.find((c) => c.id === "memory" && c.account === "quiet");
        expect(quiet).toMatchObject({ tool: "message_memory_quiet", reactionLevel: "off", actions: ["send"] });
        expect(JSON.stringify(result)).not.toContain(platform.token);
        expect(JSON.stringify(result)).not.toContain(SECRET);
      });

      it("send and react change the platform's state; recent_messages gives ids usable as messageId", async () => {
        const text = `hello from ${transport}`;
        const sent = await call(client, "message_memory", { action: "send", target: "team", text });
        expect(sent.isError).toBeFalsy();
        expect(platform.messagesIn("team").some((m) => m.senderId === "bot" && m.text === text)).toBe(true);
        const said = platform.userSends({ conversationId: "team", senderId: "ann", text: `ann on ${transport}` });
        const recent = await waitFor(
          async () => {
            const r = await call(client, "recent_messages", { channel: "memory", target: "team", limit: 10 });
            return r.structuredContent.messages.find((m) => m.messageId === said.id) ? r : undefined;
          },
          { timeoutMs: 10_000, intervalMs: 50, message: "Ann's message in recent_messages" },
        );
        expect(recent.structuredContent.messages.find((m) => m.messageId === said.id)).toMatchObject({
          fromBot: false,
          text: `ann on ${transport}`,
          sender: { id: "ann", name: "Ann" },
        });
        const reacted = await call(client, "message_memory", {
          action: "react",
          target: "team",
          messageId: said.id,
          emoji: "thumbsup",
        });
        expect(reacted.isError).toBeFalsy();
        expect(reacted.structuredContent).toMatchObject({ ok: true, op: "add" });
        expect(platform.botReactions(said.id)).toEqual(["👍"]);
      });

      it("Telegram through its tool: one reaction per message, a new one replaces the bot's", async () => {
        const said = telegram.userSends({ chatId: GROUP, from: ANN, text: `pizza? (${transport})` });
        const target = String(GROUP);
        const messageId = String(said.message_id);
        // The message is in the index once the gateway took the update.
        await waitFor(
          async () =>
            (await call(client, "recent_messages", { channel: "telegram", target })).structuredContent.messages.some(
              (m) => m.messageId === messageId,
            ),
          { timeoutMs: 10_000, intervalMs: 50, message: "the Telegram message in the index" },
        );
        const first = await call(client, "message_telegram", { action: "react", target, messageId, emoji: "👍" });
        expect(first.isError).toBeFalsy();
        expect(telegram.botReactions(GROUP, said.message_id)).toEqual(["👍"]);
        const second = await call(client, "message_telegram", { action: "react", target, messageId, emoji: "🔥" });
        expect(second.isError).toBeFalsy();
        expect(telegram.botReactions(GROUP, said.message_id)).toEqual(["🔥"]);
        const unsupported = await call(client, "message_telegram", { action: "react", target, messageId, emoji: "🦜" });
        expect(unsupported).toMatchObject({
          isError: true,
          structuredContent: { error: { code: "E_UNSUPPORTED_EMOJI" } },
        });
        expect(telegram.botReactions(GROUP, said.message_id)).toEqual(["🔥"]);
      });

      it("errors are tool results with core's codes, never protocol errors", async () => {
        const removal = await call(client, "message_nextcloud", {
          action: "react",
          target: "room",
          messageId: "1",
          emoji: "👍",
          remove: true,
        });
        // Nextcloud Talk is add-only: core's rule 2 refuses a removal, before any message lookup.
        expect(removal.isError).toBe(true);
        expect(removal.structuredContent.error.code).toBe("E_UNSUPPORTED");
        expect(removal.structuredContent.error.message).toMatch(/remov/i);
        const empty = await call(client, "message_memory", { action: "react", target: "team", messageId: "x" });
        expect(empty).toMatchObject({ isError: true, structuredContent: { error: { code: "E_EMOJI_REQUIRED" } } });
        const quiet = await call(client, "message_memory_quiet", {
          action: "react",
          target: "team",
          messageId: "x",
          emoji: "👍",
        });
        expect(quiet).toMatchObject({ isError: true, structuredContent: { error: { code: "E_DISABLED" } } });
        const missing = await call(client, "message_memory", {
          action: "react",
          target: "team",
          messageId: "no-such-message",
          emoji: "👍",
        });
        expect(missing).toMatchObject({ isError: true, structuredContent: { error: { code: "E_MESSAGE_NOT_FOUND" } } });
        const unknown = await call(client, "message_nowhere", { action: "send", target: "x", text: "hi" });
        expect(unknown).toMatchObject({ isError: true, structuredContent: { error: { code: "E_INVALID_INPUT" } } });
      });
    });
  }

  it("a channel going down sends tools/list_changed, and a status event on the event stream", async () => {
    const client = await httpClient();
    await allUp(client);
    const stream = await openEvents(gateway.url, gateway.token);
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    platform.addConversation({ id: "flaky-room", kind: "group", members: [{ id: "ann", name: "Ann" }] });
    // The flaky channel crashes on every 2nd send: one of these two takes it down.
    for (const text of ["one", "two"])
      await call(client, "message_flaky", { action: "send", target: "flaky-room", text });
    await waitFor(() => changes > 0, { timeoutMs: 10_000, message: "tools/list_changed" });
    // Back after the backoff: listed again, with one more notification.
    await waitFor(() => changes > 1, { timeoutMs: 10_000, message: "tools/list_changed when it is back" });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("message_flaky");
    const flaky = stream.events.filter((e) => e.data.type === "status" && e.data.channel === "flaky");
    expect(flaky.map((e) => e.data.up)).toContain(false);
    await waitFor(
      () => stream.events.some((e) => e.data.type === "status" && e.data.channel === "flaky" && e.data.up === true),
      { timeoutMs: 5_000, message: "the status event of flaky running again" },
    );
    expect(flaky.every((e) => e.id === undefined)).toBe(true);
    stream.close();
  }, 30_000);

  it("chorus mcp starts a gateway when none answers (logs on stderr, the protocol on stdout)", async () => {
    const home = await mkdtemp(join(tmpdir(), "chorus-mcp-home-"));
    await writeFile(
      join(home, "chorus.json"),
      JSON.stringify({
        gateway: { port: 0 },
        plugins: { load: [join(FIXTURES, "memory-channel")] },
        channels: { memory: { baseUrl: platform.url, token: platform.token, pollWaitMs: 2000 } },
      }),
    );
    let stderr = "";
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp"],
      env: { ...(process.env as Record<string, string>), CHORUS_HOME: home, CHORUS_CONFIG: "" },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: "test-start", version: "1" });
    try {
      await client.connect(transport);
      await waitFor(async () => (await client.listTools()).tools.some((t) => t.name === "message_memory"), {
        timeoutMs: 15_000,
        intervalMs: 100,
        message: "the started gateway's memory account",
      });
      const sent = await call(client, "message_memory", { action: "send", target: "team", text: "from a started one" });
      expect(sent.isError).toBeFalsy();
      expect(platform.messagesIn("team").some((m) => m.text === "from a started one")).toBe(true);
      expect(stderr).toContain("started a gateway");
      const token = (await readFile(join(home, "gateway-token"), "utf8")).trim();
      expect(stderr).not.toContain(token);
    } finally {
      await client.close();
      await removeHome(home);
    }
  }, 40_000);

  it("/mcp with a wrong token is 401", async () => {
    const response = await fetch(`${gateway.url}/mcp`, {
      method: "POST",
      headers: { authorization: "Bearer wrong", "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
  });
});
