import { Redactor } from "@chorus/channel-kit";
import type { Logger } from "pino";
import type { ChannelRegistry } from "../channels/index.js";
import type { GatewayConfig } from "../config/index.js";
import type { OperatorEvents } from "../events/index.js";
import { type ChannelView, createHttpApp, type HookRegistry, HostPolicy, listen, Readiness } from "../http/index.js";
import type { GatewayMedia } from "../media/index.js";
import { type GatewayMetrics, REFUSALS_WINDOW_MS, renderMetrics } from "../metrics/index.js";
import { queueStats, type StateStore } from "../state/index.js";
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
  state: StateStore;
  /** `/v1/media`: the store and its links. */
  media?: GatewayMedia;
  metrics: GatewayMetrics;
  operator: OperatorEvents;
  gatewayId: string;
  logger: Logger;
  redactor?: Redactor;
}): Promise<HttpHandle> {
  const { config, token, registry, hooks, leases, agentApi, webchat, state, metrics } = options;
  const webchatRuns = registry.all().some((entry) => entry.builtin);
  const channels = (): ChannelView[] =>
    registry.all().map((entry) => ({
      id: entry.plugin.id,
      account: entry.accountId,
      label: entry.plugin.label,
      status: entry.supervisor.status(),
      holder: leases.holderOf(entry.key),
      leased: leases.leased(entry.key),
      capabilities: entry.capabilities,
      // The webchat's routes serve its own page (uploads, media), not a platform: no webhooks to register.
      webhooks: entry.builtin ? [] : hooks.pathsOf(entry.plugin.id),
    }));
  const redactor = options.redactor ?? new Redactor();
  const readiness = new Readiness({
    probeState: () => state.db.one("SELECT 1 AS one"),
    channels,
    gatewayId: options.gatewayId,
    refusals: (channel, account) => metrics.refusals(channel, account, Date.now() - REFUSALS_WINDOW_MS),
    windowMinutes: REFUSALS_WINDOW_MS / 60_000,
    redact: (text) => redactor.text(text),
  });
  const hosts = new HostPolicy(config.gateway);
  const app = createHttpApp({
    token,
    hosts,
    readiness: () => readiness.check(),
    metrics: () =>
      renderMetrics(metrics, {
        queues: () => queueStats(state.db),
        accounts: () => channels().map((c) => ({ channel: c.id, account: c.account, state: c.status.state })),
        ready: () => readiness.ready(),
      }),
    metricsPublic: config.gateway.metrics?.public === true,
    onTooLarge: (channel, path) => {
      metrics.received(channel, "unknown", "too-large");
      options.operator.publish({
        outcome: "too-large",
        channel,
        reason: `a webhook body over gateway.maxBodyBytes (${config.gateway.maxBodyBytes} bytes) at ${path}: answered 413`,
      });
    },
    maxBodyBytes: config.gateway.maxBodyBytes,
    ...(options.media
      ? { media: { store: options.media.store, links: options.media.links, maxBytes: options.media.settings.maxBytes } }
      : {}),
    hooks,
    tools: agentApi.external,
    logger: options.logger,
    ...(options.redactor ? { redactor: options.redactor } : {}),
    events: (after, write, signal, streamOptions) => agentApi.events.stream(after, write, signal, streamOptions),
    mcp: (request) => agentApi.mcp.handle(request),
    // Fresh from the lease table: right after a takeover every gateway names the new holder.
    channels: async () => {
      await leases.refreshHolders().catch(() => undefined);
      return channels();
    },
    ...(webchatRuns
      ? { webchat: { page: () => webchatPage({ title: webchat.title }), csp: () => webchatPageCsp() } }
      : {}),
  });
  const server = await listen(app, config.gateway.bind, config.gateway.port);
  const socket = attachWebchatSocket(server.server, webchat, {
    token,
    hostRefusal: (host, origin) => hosts.refusal(host, origin),
  });
  return {
    url: server.url,
    publicUrl: config.gateway.publicUrl?.replace(/\/$/, "") ?? server.url,
    close: async () => {
      await socket.close();
      await server.close();
    },
  };
}
