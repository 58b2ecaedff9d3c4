import { join } from "node:path";
import { createMemoryPlatform, type MemoryPlatform, sampleMedium, waitFor } from "@chorus/testkit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, FIXTURES, type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { openEvents, type SseStream } from "../support/sse-client.js";

const MB = 1024 * 1024;
const png = sampleMedium("image");

interface AttachmentOnEvent {
  kind: string;
  mime?: string;
  size?: number;
  filename?: string;
  mediaId?: string;
  error?: string;
  source?: unknown;
}
type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
  structuredContent: Record<string, unknown>;
};

/*
 * What an outside agent gets of what people send, through the real `chorus start` with the testkit's
 * memory channel: the photo on `/v1/events` with a mediaId whose bytes `/v1/media/<id>` returns,
 * in `recent_messages`, shown by `get_media` as MCP image content (over Streamable HTTP and over
 * `chorus mcp`'s stdio), and sent on with the channel's message tool.
 */
describe("media for outside agents: /v1/events, recent_messages, get_media", () => {
  let platform: MemoryPlatform;
  let gateway: GatewayProcess;
  let stream: SseStream;
  const clients: Client[] = [];

  beforeAll(async () => {
    platform = createMemoryPlatform();
    await platform.start();
    platform.addConversation({ id: "dm-ann", kind: "direct", members: [{ id: "ann", name: "Ann" }] });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [join(FIXTURES, "memory-channel")] },
        channels: {
          memory: { baseUrl: platform.url, token: platform.token, pollWaitMs: 2000, dmPolicy: "open" },
          webchat: { enabled: false },
        },
        media: { maxBytes: 1 * MB },
      },
    });
    stream = await openEvents(gateway.url, gateway.token);
    await waitFor(() => stream.events.some((e) => e.data.type === "ready"), { message: "the ready event" });
  }, 30_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    stream?.close();
    await gateway?.stop();
    await platform?.close();
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

  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as unknown as ToolResult;

  /** The message event of platform message `messageId` on `on`. */
  const eventOf = (on: SseStream, messageId: string) =>
    waitFor(() => on.events.find((e) => e.data.type === "message" && e.data.messageId === messageId), {
      timeoutMs: 15_000,
      message: `the event of ${messageId}`,
    });

  let photoId = "";
  let mediaId = "";

  it("a photo someone sends is on /v1/events with a mediaId whose bytes /v1/media returns, downloaded once", async () => {
    const sent = platform.userSendsMedium({
      conversationId: "dm-ann",
      senderId: "ann",
      kind: "image",
      bytes: png.bytes,
      mime: png.mime,
      filename: "cat.png",
      caption: "our cat",
    });
    photoId = sent.id;
    const event = await eventOf(stream, sent.id);
    expect(event.data).toMatchObject({ type: "message", text: "our cat", sender: { id: "ann" } });
    const attachments = event.data.attachments as AttachmentOnEvent[];
    expect(attachments).toEqual([
      { kind: "image", mime: "image/png", size: png.bytes.length, filename: "cat.png", mediaId: expect.any(String) },
    ]);
    expect(JSON.stringify(event.data)).not.toContain("source");
    mediaId = attachments[0]?.mediaId as string;
    expect(mediaId).toMatch(/^med_[\w-]+$/);
    const served = await fetch(`${gateway.url}/v1/media/${mediaId}`, {
      headers: { authorization: `Bearer ${gateway.token}` },
    });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(Buffer.from(png.bytes));
    // The turn (the demo agent) and the stream read the same message: it was downloaded once.
    await waitFor(() => platform.botMessagesIn("dm-ann").length > 0, { timeoutMs: 15_000, message: "the demo reply" });
    expect(platform.bytesServed).toBe(png.bytes.length);
  });

  it("a reconnect with Last-Event-ID replays the event with the same mediaId, downloading nothing", async () => {
    const event = await eventOf(stream, photoId);
    const again = await openEvents(gateway.url, gateway.token, String(Number(event.id) - 1));
    try {
      const replayed = await eventOf(again, photoId);
      expect(replayed.data).toEqual(event.data);
      expect((replayed.data.attachments as AttachmentOnEvent[])[0]?.mediaId).toBe(mediaId);
      expect(platform.bytesServed).toBe(png.bytes.length);
    } finally {
      again.close();
    }
  });

  it("an attachment over media.maxBytes is on the event with the error that kept it out", async () => {
    const sent = platform.userSendsMedium({
      conversationId: "dm-ann",
      senderId: "ann",
      kind: "file",
      bytes: new Uint8Array(2 * MB).fill(1),
      mime: "application/octet-stream",
      filename: "backup.bin",
    });
    const [attachment] = (await eventOf(stream, sent.id)).data.attachments as AttachmentOnEvent[];
    expect(attachment).toMatchObject({ kind: "file", filename: "backup.bin", size: 2 * MB });
    expect(attachment?.mediaId).toBeUndefined();
    expect(attachment?.error).toMatch(/^E_TOO_LARGE: .*over 1 MB/);
  });

  it("recent_messages lists the photo with its mediaId; get_media shows it as an image with the same bytes", async () => {
    const client = await httpClient();
    const recent = await call(client, "recent_messages", { channel: "memory", target: "dm-ann" });
    const messages = recent.structuredContent.messages as { messageId: string; attachments?: AttachmentOnEvent[] }[];
    expect(messages.find((m) => m.messageId === photoId)?.attachments).toEqual([
      { kind: "image", mime: "image/png", size: png.bytes.length, filename: "cat.png", mediaId },
    ]);
    const tool = (await client.listTools()).tools.find((t) => t.name === "get_media");
    expect(tool?.description).toContain("5 MB");
    const shown = await call(client, "get_media", { mediaId });
    expect(shown.isError).toBeFalsy();
    const image = shown.content.find((c) => c.type === "image");
    expect(image?.mimeType).toBe("image/png");
    expect(Buffer.from(image?.data as string, "base64")).toEqual(Buffer.from(png.bytes));
    const unknown = await call(client, "get_media", { mediaId: "med_nosuchmedium00" });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent.error).toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
      message: expect.stringContaining("med_nosuchmedium00"),
    });
  });

  it("the channel's message tool offers media and sends the photo on by its mediaId, byte for byte", async () => {
    const client = await httpClient();
    const tool = (await client.listTools()).tools.find((t) => t.name === "message_memory");
    expect(Object.keys((tool?.inputSchema.properties ?? {}) as object)).toEqual(
      expect.arrayContaining(["media", "location"]),
    );
    const sent = await call(client, "message_memory", {
      action: "send",
      target: "dm-ann",
      text: "your cat, back",
      media: [{ mediaId }],
    });
    expect(sent.isError).toBeFalsy();
    expect(sent.structuredContent).toMatchObject({ ok: true, sentAs: ["image"] });
    const messageId = sent.structuredContent.messageId as string;
    const onPlatform = platform.messageMedia(messageId);
    expect(onPlatform.media.map((m) => [m.kind, m.caption, Buffer.from(m.bytes)])).toEqual([
      ["image", "your cat, back", Buffer.from(png.bytes)],
    ]);
  });

  it("over `chorus mcp` (stdio, what a desktop agent starts) get_media is the same image", async () => {
    const client = new Client({ name: "desktop", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "mcp", "--url", gateway.url, "--token", gateway.token, "--no-start"],
        env: { ...(process.env as Record<string, string>), CHORUS_HOME: gateway.home, CHORUS_CONFIG: "" },
        stderr: "pipe",
      }),
    );
    clients.push(client);
    const shown = await call(client, "get_media", { mediaId });
    const image = shown.content.find((c) => c.type === "image");
    expect(Buffer.from(image?.data as string, "base64")).toEqual(Buffer.from(png.bytes));
  });
});
