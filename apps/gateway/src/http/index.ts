// The gateway's one HTTP server: health and readiness, metrics, the API (`/v1`), MCP, the webchat page and the plugins' webhooks.
export { type ChannelView, createHttpApp, type HttpAppOptions } from "./app.js";
export { bearerMatches } from "./auth.js";
export { HookRegistry, hookPath } from "./hooks.js";
export { HostPolicy, type HostPolicyConfig, hostCheck } from "./host-check.js";
export { contentDisposition, type MediaApi, type MediaRoutesOptions, registerMediaRoutes } from "./media-routes.js";
export { type ProbeRoutesOptions, registerProbeRoutes } from "./probes.js";
export {
  type AccountReadiness,
  Readiness,
  type ReadinessAccount,
  type ReadinessOptions,
  type ReadinessReport,
} from "./readiness.js";
export { type ListeningServer, listen } from "./server.js";
export { httpStatusFor } from "./status.js";
