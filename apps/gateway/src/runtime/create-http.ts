import type { Logger } from "pino";
import type { ChannelRegistry } from "../channels/index.js";
import type { GatewayConfig } from "../config/index.js";
import { type ChannelView, createHttpApp, type HookRegistry, listen } from "../http/index.js";
import { attachWebchatSocket, type WebchatSite, webchatPage, webchatPageCsp } from "../webchat/index.js";
import type { AgentApi } from "./agent-api.js";
import type { LeasesHandle } from "./create-leases.js";

/** The gateway's HTTP server, listening. */
export interface HttpHandle {
  /** `http://<bind>:<port>` as it listens. */
  url: string;
  /** Where platforms reach it: `gateway.publicUrl`, else `url`. */
  publicUrl: string;
  close(): Promise<void>;
}

/** Serves the API, MCP, the event stream, the plugins' webhooks and (when it runs) the webchat page and socket. */
export async function createHttp(options: {
  config: GatewayConfig;
  token: string;
  registry: ChannelRegistry;
  hooks: HookRegistry;
  leases: LeasesHandle;
  agentApi: AgentApi;
  webchat: WebchatSite;
  logger: Logger;
}): Promise<HttpHandle> {
  const { config, token, registry, hooks, leases, agentApi, webchat } = options;
  const webchatRuns = registry.all().some((entry) => entry.builtin);
  const channels = (): ChannelView[] =>
    registry.all().map((entry) => ({
      id: entry.plugin.id,
      account: entry.accountId,
      label: entry.plugin.label,
      status: entry.supervisor.status(),
      holder: leases.holderOf(entry.key),
      leased: leases.leased(entry.key),
      capabilities: entry.plugin.capabilities,
      webhooks: hooks.pathsOf(entry.plugin.id),
    }));
  const app = createHttpApp({
    token,
    maxBodyBytes: config.gateway.maxBodyBytes,
    hooks,
    tools: agentApi.external,
    logger: options.logger,
    events: (after, write, signal) => agentApi.events.stream(after, write, signal),
    mcp: (request) => agentApi.mcp.handle(request),
    channels,
    ...(webchatRuns
      ? { webchat: { page: () => webchatPage({ title: webchat.title }), csp: () => webchatPageCsp() } }
      : {}),
  });
  const server = await listen(app, config.gateway.bind, config.gateway.port);
  const socket = attachWebchatSocket(server.server, webchat, { token });
  return {
    url: server.url,
    publicUrl: config.gateway.publicUrl?.replace(/\/$/, "") ?? server.url,
    close: async () => {
      await socket.close();
      await server.close();
    },
  };
}
