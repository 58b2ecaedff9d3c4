// The gateway's one HTTP server: health, the API (`/v1`), MCP, the webchat page and the plugins' webhooks.
export { type ChannelView, createHttpApp, type HttpAppOptions } from "./app.js";
export { bearerMatches } from "./auth.js";
export { HookRegistry, hookPath } from "./hooks.js";
export { type ListeningServer, listen } from "./server.js";
export { httpStatusFor } from "./status.js";
