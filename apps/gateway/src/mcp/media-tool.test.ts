import { streamOf } from "@chorus/channel-kit";
import { ChorusError } from "@chorus/core";
import { SAMPLE_PDF_TEXT, sampleMedium } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChannelRegistry } from "../channels/index.js";
import { defaultMedia } from "../config/index.js";
import { type GatewayMedia, mediaSettingsOf, openMedia } from "../media/index.js";
import { openTestState, type TestState } from "../testing/index.js";
import type { McpContent } from "./content.js";
import { INLINE_MAX_BYTES } from "./media-tool.js";
import { McpTools } from "./tools.js";

const MB = 1024 * 1024;
const PUBLIC = "https://chat.example.com";

interface Facts {
  ok: boolean;
  mediaId: string;
  kind: string;
  mime: string;
  size: number;
  filename: string;
  url?: string;
  shownAs: string;
  note?: string;
  error?: { code: string; message: string };
}

/** `get_media` on the real media store (SQLite and files in a temp home), as the MCP server calls it. */
describe("get_media: a medium of the store as MCP content", () => {
  let test: TestState;
  let media: GatewayMedia;

  async function open(publicUrl?: string) {
    media?.close();
    media = await openMedia(test.state.db, mediaSettingsOf(defaultMedia(), test.home), { publicUrl });
    return new McpTools({
      registry: new ChannelRegistry(),
      execute: () => Promise.reject(new ChorusError("E_UNSUPPORTED", "not here")),
      recent: async () => [],
      media: { store: media.store, links: media.links, maxBytes: 20 * MB, maxExtractChars: 40 },
    });
  }

  const put = async (bytes: Uint8Array, filename?: string) =>
    (await media.store.put(streamOf(bytes), { maxBytes: 20 * MB, filename })).mediaId;

  async function get(tools: McpTools, mediaId: unknown) {
    const result = await tools.call("get_media", { mediaId });
    const content = result.content as McpContent[];
    return { result, facts: result.structuredContent as unknown as Facts, rest: content.slice(1), first: content[0] };
  }

  beforeEach(async () => {
    test = await openTestState();
  });
  afterEach(async () => {
    media?.close();
    await test.close();
  });

  it("is offered with the store, its description saying the inline limit", async () => {
    const tools = await open();
    const tool = tools.list().find((t) => t.name === "get_media");
    expect(tool?.description).toContain("up to 5 MB");
    expect(tool?.inputSchema).toMatchObject({ required: ["mediaId"], additionalProperties: false });
    const without = new McpTools({
      registry: new ChannelRegistry(),
      execute: async () => ({}) as never,
      recent: async () => [],
    });
    expect(without.list().map((t) => t.name)).not.toContain("get_media");
  });

  it("a photo is an image block whose base64 is its bytes, after its facts", async () => {
    const tools = await open();
    const png = sampleMedium("image").bytes;
    const mediaId = await put(png, "cat.png");
    const { result, facts, first, rest } = await get(tools, mediaId);
    expect(result.isError).toBeUndefined();
    expect(facts).toEqual({
      ok: true,
      mediaId,
      kind: "image",
      mime: "image/png",
      size: png.length,
      filename: "cat.png",
      shownAs: "image",
    });
    expect(first).toEqual({ type: "text", text: JSON.stringify(facts) });
    expect(rest).toEqual([{ type: "image", data: Buffer.from(png).toString("base64"), mimeType: "image/png" }]);
  });

  it("audio and voice notes are audio blocks; a PDF and a text file their text, cut at the limit", async () => {
    const tools = await open();
    for (const kind of ["audio", "voice"] as const) {
      const sample = sampleMedium(kind);
      const { rest, facts } = await get(tools, await put(sample.bytes));
      expect(facts.shownAs).toBe("audio");
      expect(rest).toEqual([
        { type: "audio", data: Buffer.from(sample.bytes).toString("base64"), mimeType: facts.mime },
      ]);
    }
    const pdf = await get(tools, await put(sampleMedium("file").bytes, "notes.pdf"));
    expect(pdf.facts).toMatchObject({ mime: "application/pdf", shownAs: "text" });
    expect(pdf.rest).toEqual([{ type: "text", text: SAMPLE_PDF_TEXT }]);
    const notes = await get(tools, await put(new TextEncoder().encode("buy milk\nand bread"), "list.txt"));
    expect(notes.rest).toEqual([{ type: "text", text: "buy milk\nand bread" }]);
    const long = await get(tools, await put(new TextEncoder().encode("a".repeat(50)), "long.txt"));
    expect(long.rest).toEqual([{ type: "text", text: `${"a".repeat(40)}\n…[truncated: 10 more characters]` }]);
  });

  it("a photo over 5 MB, or a video, is its facts and a signed link where the gateway has a public URL", async () => {
    const tools = await open(PUBLIC);
    const big = new Uint8Array(INLINE_MAX_BYTES + 1);
    big.set(sampleMedium("image").bytes);
    const { facts, rest } = await get(tools, await put(big, "huge.png"));
    expect(facts).toMatchObject({ mime: "image/png", shownAs: "facts", note: "5 MB: over the 5 MB shown inline" });
    expect(facts.url).toMatch(new RegExp(`^${PUBLIC}/v1/media/${facts.mediaId}\\?exp=\\d+&sig=`));
    expect(rest).toEqual([
      {
        type: "resource_link",
        uri: facts.url,
        name: "huge.png",
        mimeType: "image/png",
        size: big.length,
        description: expect.stringContaining("signed link"),
      },
    ]);
    const video = await get(tools, await put(sampleMedium("video").bytes, "clip.mp4"));
    expect(video.facts).toMatchObject({ kind: "video", shownAs: "facts", note: "not a type shown inline" });
    expect(video.rest).toEqual([expect.objectContaining({ type: "resource_link", name: "clip.mp4" })]);
  });

  it("without gateway.publicUrl a medium not shown inline says how to fetch it with the API", async () => {
    const tools = await open();
    const zip = await get(tools, await put(new Uint8Array([0x50, 0x4b, 3, 4, 20, 0, 0, 0, 0, 0]), "a.zip"));
    expect(zip.facts.url).toBeUndefined();
    expect(zip.facts.note).toBe(
      `not a type shown inline; GET /v1/media/${zip.facts.mediaId} with the API token returns it`,
    );
    expect(zip.rest).toEqual([]);
  });

  it("an unknown id is a tool error naming it; a call without a mediaId is invalid input", async () => {
    const tools = await open();
    const unknown = await get(tools, "med_unknown0000000");
    expect(unknown.result.isError).toBe(true);
    expect(unknown.facts.error).toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
      message: "There is no medium med_unknown0000000 (never stored, or past its retention).",
    });
    const missing = await tools.call("get_media", {});
    expect(missing.isError).toBe(true);
    expect((missing.structuredContent as unknown as Facts).error?.code).toBe("E_INVALID_INPUT");
  });
});
