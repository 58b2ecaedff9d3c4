import { createHash, randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleMedium, waitFor } from "@chorus/testkit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIXTURES, type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";

const MB = 1024 * 1024;
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

interface Recorded {
  started?: boolean;
  messageId?: string;
  text?: string;
  idempotencyKey?: string;
  media?: { kind: string; filename: string; size: number; caption?: string; bytes: number; sha256: string }[];
}

/**
 * `send` with media through `POST /v1/tools/message` on the real gateway (DESIGN §2.6), to a channel
 * that reads every byte of each medium (test/fixtures/media-channel: images up to 1 MB, anything up
 * to 8 MB, albums of two with captions).
 */
describe("sending media through the HTTP API", () => {
  let home: string;
  let record: string;
  let gateway: GatewayProcess | undefined;
  const config = (channel: Record<string, unknown> = {}) => ({
    plugins: { load: [join(FIXTURES, "media-channel")] },
    channels: { mediatest: { record, ...channel } },
    media: { maxBytes: 20 * MB },
  });
  const recorded = async (): Promise<Recorded[]> =>
    (await readFile(record, "utf8").catch(() => ""))
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Recorded);
  const send = (body: Record<string, unknown>) =>
    (gateway as GatewayProcess).call("POST", "/v1/tools/message", {
      channel: "mediatest",
      target: "c1",
      action: "send",
      ...body,
    });
  const upload = async (bytes: Uint8Array, filename: string) => {
    const answer = await fetch(`${gateway?.url}/v1/media?filename=${encodeURIComponent(filename)}`, {
      method: "POST",
      headers: { authorization: `Bearer ${gateway?.token}` },
      body: Buffer.from(bytes),
    });
    return (await answer.json()) as { mediaId: string };
  };

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "chorus-media-send-"));
    record = join(home, "sends.jsonl");
  });

  afterEach(async () => {
    await gateway?.stop("SIGKILL");
    gateway = undefined;
    await removeHome(home);
  });

  it("sends an upload, a file of the media directory and inline data, every byte, as planned", async () => {
    gateway = await startGatewayProcess({ home, config: config() });
    const archive = randomBytes(3 * MB);
    const { mediaId } = await upload(archive, "archive.bin");
    const pdf = sampleMedium("file").bytes;
    await writeFile(join(home, "media", "outbox", "report.pdf"), pdf);
    const png = sampleMedium("image").bytes;
    const answer = await send({
      text: "This week",
      media: [
        { mediaId },
        { path: "report.pdf" },
        { data: Buffer.from(png).toString("base64"), filename: "chart.png" },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.json.result).toMatchObject({ ok: true, action: "send", sentAs: ["file", "file", "image"] });
    expect(answer.json.result.messageIds).toHaveLength(2);
    const sends = await recorded();
    expect(sends.map((s) => s.messageId)).toEqual(answer.json.result.messageIds);
    expect(sends.map((s) => s.media?.map((m) => [m.filename, m.kind, m.bytes, m.sha256, m.caption]))).toEqual([
      [
        ["archive.bin", "file", archive.byteLength, sha(archive), "This week"],
        ["report.pdf", "file", pdf.byteLength, sha(pdf), undefined],
      ],
      [["chart.png", "image", png.byteLength, sha(png), undefined]],
    ]);
  });

  it("an MCP client sends media with the channel's message tool, whose schema offers them", async () => {
    gateway = await startGatewayProcess({ home, config: config() });
    const client = new Client({ name: "test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${gateway.token}` } },
      }),
    );
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === "message_mediatest");
      expect(Object.keys((tool?.inputSchema.properties ?? {}) as object)).toEqual(
        expect.arrayContaining(["media", "location"]),
      );
      const mp3 = sampleMedium("audio").bytes;
      const result = (await client.callTool({
        name: "message_mediatest",
        arguments: {
          action: "send",
          target: "c1",
          media: [{ data: Buffer.from(mp3).toString("base64"), as: "voice" }],
          location: { latitude: 48.8584, longitude: 2.2945, name: "Tour Eiffel" },
        },
      })) as unknown as { isError?: boolean; structuredContent: { sentAs: string[] } };
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent.sentAs).toEqual(["voice", "location"]);
      const sends = await recorded();
      expect(sends.map((s) => s.media?.map((m) => [m.kind, m.sha256]))).toEqual([[["voice", sha(mp3)]], []]);
    } finally {
      await client.close();
    }
  });

  it("over a kind's limit it falls back; over every limit, or not allowed, nothing is sent", async () => {
    gateway = await startGatewayProcess({ home, config: config() });
    await mkdir(join(home, "media", "outbox"), { recursive: true });
    const bigPicture = Buffer.concat([sampleMedium("image").bytes, randomBytes(2 * MB)]);
    await writeFile(join(home, "media", "outbox", "big.png"), bigPicture);
    const fallen = await send({ media: [{ path: "big.png" }] });
    expect(fallen.json.result.sentAs).toEqual(["file"]);
    expect((await recorded())[0]?.media?.[0]).toMatchObject({ kind: "file", sha256: sha(bigPicture) });

    const { mediaId } = await upload(randomBytes(9 * MB), "video.bin");
    const tooLarge = await send({ media: [{ mediaId }] });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json.error).toMatchObject({
      code: "E_TOO_LARGE",
      message: "media.0 is 9 MB; Media Test takes media up to 8 MB.",
    });
    const privateUrl = await send({ media: [{ url: `${gateway.url}/v1/channels` }] });
    expect(privateUrl.status).toBe(400);
    expect(privateUrl.json.error.message).toContain("the address 127.0.0.1 (loopback) is not allowed");
    const outside = await send({ media: [{ path: "../../chorus.json" }] });
    expect([outside.status, outside.json.error.message]).toEqual([
      400,
      'media.0.path: "../../chorus.json" is outside the media directory (media.dir).',
    ]);
    expect((await recorded()).length).toBe(1);
  });

  it("a send cut off by a crash goes out after the restart: the same bytes, once", async () => {
    gateway = await startGatewayProcess({ home, config: config({ hangOn: "stuck" }) });
    const pdf = sampleMedium("file").bytes;
    void send({ media: [{ data: Buffer.from(pdf).toString("base64"), caption: "stuck" }] }).catch(() => undefined);
    await waitFor(async () => (await recorded()).some((line) => line.started), {
      timeoutMs: 10_000,
      message: "the send started",
    });
    await gateway.stop("SIGKILL");
    gateway = await startGatewayProcess({ home, config: config() });
    await waitFor(async () => (await recorded()).some((line) => line.messageId !== undefined), {
      timeoutMs: 20_000,
      message: "the resumed send",
    });
    const lines = await recorded();
    const done = lines.filter((line) => line.messageId !== undefined);
    expect(done).toHaveLength(1);
    expect(done[0]?.media).toEqual([
      expect.objectContaining({ kind: "file", caption: "stuck", bytes: pdf.byteLength, sha256: sha(pdf) }),
    ]);
    expect(done[0]?.idempotencyKey).toBe(lines.find((line) => line.started)?.idempotencyKey);
  });
});
