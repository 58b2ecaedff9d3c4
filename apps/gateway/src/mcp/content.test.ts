import { describe, expect, it } from "vitest";
import { contentFor, type McpContent } from "./content.js";
import { McpServer } from "./server.js";

const AUDIO: McpContent = { type: "audio", data: "T2dnUw==", mimeType: "audio/ogg" };
const LINK: McpContent = {
  type: "resource_link",
  uri: "https://chat.example.com/v1/media/med_abcdefgh?exp=1&sig=x",
  name: "clip.mp4",
  mimeType: "video/mp4",
};
const IMAGE: McpContent = { type: "image", data: "iVBORw==", mimeType: "image/png" };

describe("tool result content for the session's protocol revision", () => {
  it("keeps what the revision has, and says in text what it does not", () => {
    expect(contentFor([IMAGE, AUDIO, LINK], "2025-06-18")).toEqual([IMAGE, AUDIO, LINK]);
    expect(contentFor([IMAGE, AUDIO, LINK], "2025-03-26")).toEqual([
      IMAGE,
      AUDIO,
      { type: "text", text: "clip.mp4 (video/mp4): https://chat.example.com/v1/media/med_abcdefgh?exp=1&sig=x" },
    ]);
    expect(contentFor([IMAGE, AUDIO], "2024-11-05")).toEqual([
      IMAGE,
      { type: "text", text: "(audio content left out: MCP 2024-11-05 has none; it came with 2025-03-26)" },
    ]);
  });

  it("a session initialised on 2024-11-05 gets no audio block from tools/call", async () => {
    const server = new McpServer({ list: () => [], call: async () => ({ content: [AUDIO, IMAGE] }) });
    const init = await server.handle({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "old" } },
    });
    expect(init).toMatchObject({ result: { protocolVersion: "2024-11-05" } });
    const answer = await server.handle({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "get_media", arguments: {} },
    });
    expect((answer as unknown as { result: { content: McpContent[] } }).result.content.map((c) => c.type)).toEqual([
      "text",
      "image",
    ]);
  });
});
