// The MCP server (`/mcp` over Streamable HTTP, `chorus mcp` over stdio): one `message` tool per channel account, `list_channels`, `recent_messages` (attachments with their `mediaId`), `get_media` (a medium as MCP image, audio, text or a link).
export { lazyMcpEndpoint, type McpEndpoint } from "./lazy-endpoint.js";
export { serveStdio } from "./stdio.js";
export { McpTools } from "./tools.js";
