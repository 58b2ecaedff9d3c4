import { ASSUMED_PROTOCOL_VERSION } from "./protocol-version.js";

/** One content block of a tool result: text, an image or audio (base64), or a link to a resource. */
export type McpContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string; size?: number; description?: string };

/** The first protocol revision with each block type that not every revision has. */
const INTRODUCED: Partial<Record<McpContent["type"], string>> = {
  audio: "2025-03-26",
  resource_link: "2025-06-18",
};

/**
 * `content` as a session on `protocolVersion` may receive it: a block its revision does not have
 * becomes a text saying what it was (a resource link its name and address; audio that it is left out).
 */
export function contentFor(content: readonly McpContent[], protocolVersion: string | undefined): McpContent[] {
  const version = protocolVersion ?? ASSUMED_PROTOCOL_VERSION;
  return content.map((block): McpContent => {
    const since = INTRODUCED[block.type];
    if (since === undefined || version >= since) return block;
    if (block.type === "resource_link")
      return { type: "text", text: `${block.name}${block.mimeType ? ` (${block.mimeType})` : ""}: ${block.uri}` };
    return {
      type: "text",
      text: `(${block.type} content left out: MCP ${version} has none; it came with ${since})`,
    };
  });
}
