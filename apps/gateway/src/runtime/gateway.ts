import { dirname, join } from "node:path";
import { Redactor, secretsOf } from "@chorus/channel-kit";
import { type ChannelPlugin, ChorusError, toChorusError } from "@chorus/core";
import type { Logger } from "pino";
import { pairingFilePath } from "../access/pairing.js";
import { PairingStore } from "../access/pairing-store.js";
import { ModelFailures } from "../agent/failures.js";
import { restartBackoffFromEnv } from "../channels/backoff.js";
import { runAsChannel, runAsGateway } from "../channels/containment.js";
import { MessageToolExecutor } from "../channels/message-tool.js";
import { ChannelRegistry } from "../channels/registry.js";
import { ChannelSupervisor } from "../channels/supervisor.js";
import {
  agentFor,
  channelAccounts,
  isLoopback,
  type LoadedConfig,
  resolveAgents,
  validatePluginConfig,
} from "../config/index.js";
import { type ChorusPaths, channelStateDir } from "../home.js";
import { createHttpApp } from "../http/app.js";
import { HookRegistry, hookPath } from "../http/hooks.js";
import { type ListeningServer, listen } from "../http/server.js";
import { GATEWAY_PACKAGE_DIR } from "../package-dir.js";
import { discoverChannels, findChannel, loadChannelPlugin } from "../plugins/index.js";
import { SystemEvents } from "../reaction-notifications/system-events.js";
import { OpenedSessions, TurnQueue } from "../sessions/index.js";
import { ChannelStores, EventDeduper, MessageIndex } from "../state/index.js";
import { TurnRunner } from "../turn/run.js";
import { attachWebchatSocket, createWebchatPlugin, WebchatHub, webchatPage, webchatPageCsp } from "../webchat/index.js";
import { MessageGate } from "./gate.js";
import { startHeartbeats } from "./heartbeats.js";
import { InboundRouter } from "./inbound.js";
import { resolveToken } from "./token.js";

export interface StartGatewayOptions {
  paths: ChorusPaths;
  loaded: LoadedConfig;
  logger: Logger;
  /** Directory of the gateway package (for discovery of plugins installed next to it). */
  gatewayDir?: string;
}

export interface RunningGateway {
  url: string;
  token: string;
  tokenGenerated: boolean;
  registry: ChannelRegistry;
  /** Graceful stop: drains in-flight turns, stops channels, flushes stores, closes the server. */
  close(): Promise<void>;
}

/** Starts the gateway: channels, agent runtime, HTTP server (DESIGN §5, §6). */
export async function startGateway(options: StartGatewayOptions): Promise<RunningGateway> {
  const { paths, loaded, logger } = options;
  const config = loaded.config;
  if (!isLoopback(config.gateway.bind) && !config.gateway.auth.token) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `refusing to bind ${config.gateway.bind} without gateway.auth.token: anyone on the network could drive the agent`,
      { hint: "Set gateway.auth.token (16+ characters), or bind to 127.0.0.1." },
    );
  }
  const { token, generated } = await resolveToken(config.gateway.auth.token, paths.tokenFile);
  const agents = resolveAgents(config);
  const restartBackoff = restartBackoffFromEnv();

  const hub = await WebchatHub.open({
    stateDir: channelStateDir(paths, "webchat", "default"),
    logger,
    botName: agents.find((a) => a.isDefault)?.name ?? "Chorus",
  });
  const webchat = createWebchatPlugin(hub);
  const channelsConfig: Record<string, Record<string, unknown>> = { ...config.channels };
  // The webchat is reached only with the gateway token: whoever has it is trusted (and an owner).
  channelsConfig.webchat = { dmPolicy: "open", groupPolicy: "open", allowFrom: ["*"], ...config.channels.webchat };
  const discovery = await discoverChannels({
    gatewayDir: options.gatewayDir ?? GATEWAY_PACKAGE_DIR,
    pluginsDir: paths.plugins,
    load: config.plugins.load,
    configDir: dirname(loaded.file),
    builtins: [
      {
        id: "webchat",
        packageName: "@chorus/gateway",
        version: "builtin",
        dir: GATEWAY_PACKAGE_DIR,
        manifest: { kind: "channel", id: "webchat", apiVersion: 1 },
        source: "builtin",
        plugin: webchat as ChannelPlugin<unknown>,
      },
    ],
  });
  for (const problem of discovery.problems) logger.warn({ problem }, "plugin discovery problem");

  const hooks = new HookRegistry();
  const registry = new ChannelRegistry();
  const stores = new ChannelStores(paths, logger);
  const index = new MessageIndex({ dir: join(paths.state, "message-index") });
  const queue = new TurnQueue({ maxConcurrent: config.agents.defaults.maxConcurrentTurns });
  const tools = new MessageToolExecutor(registry, index);
  const sessions = new OpenedSessions(paths.home);
  const sessionsOf = sessions.of;
  const systemEvents = new SystemEvents();
  const failures = new ModelFailures();
  const turns = new TurnRunner({ config, sessionsOf, tools, systemEvents, failures, logger });
  const gate = new MessageGate({ config, failures, pairing: await PairingStore.open(pairingFilePath(paths)) });
  const router = new InboundRouter({
    config,
    agentFor: (entry) => agentFor(agents, entry.settings),
    sessionsOf,
    index,
    deduper: new EventDeduper(),
    queue,
    gate,
    turns,
    tools,
    systemEvents,
    logger,
  });

  for (const [channelId, block] of Object.entries(channelsConfig)) {
    const accounts = channelAccounts(channelId, block);
    if (accounts.every((a) => a.settings.enabled === false)) continue;
    const plugin = await loadChannelPlugin(findChannel(channelId, discovery));
    for (const account of accounts) {
      if (account.settings.enabled === false) continue;
      const pluginConfig = await validatePluginConfig(plugin, account);
      // Every line, error and status of this account passes through its redactor: its secrets never show.
      const redactor = new Redactor(secretsOf(pluginConfig, plugin.secretKeys));
      const channelLogger = logger.child({ channel: channelId, account: account.accountId });
      const pluginLogger = redactor.logger(channelLogger);
      const supervisor: ChannelSupervisor = new ChannelSupervisor({
        plugin,
        accountId: account.accountId,
        logger: pluginLogger,
        backoff: restartBackoff,
        redactor,
        context: (signal) => ({
          config: pluginConfig,
          accountId: account.accountId,
          store: stores.of(channelId, account.accountId),
          stateDir: channelStateDir(paths, channelId, account.accountId),
          logger: pluginLogger,
          signal,
          emit: (event) => runAsGateway(() => router.handle(entryOf(), event)),
          http: {
            route: (method, path, handler) => {
              hooks.register(channelId, method, path, (request) => runAsChannel(supervisor, () => handler(request)));
            },
            url: (path) => `${publicUrl()}${hookPath(channelId, path)}`,
          },
        }),
      });
      const entry = { plugin, accountId: account.accountId, settings: account.settings, supervisor, redactor };
      const entryOf = () => entry;
      registry.add(entry);
    }
  }

  const app = createHttpApp({
    token,
    maxBodyBytes: config.gateway.maxBodyBytes,
    hooks,
    tools,
    logger,
    channels: () =>
      registry.all().map((e) => ({
        id: e.plugin.id,
        account: e.accountId,
        label: e.plugin.label,
        status: e.supervisor.status(),
        capabilities: e.plugin.capabilities,
        webhooks: e.plugin.id === "webchat" ? [] : hooks.pathsOf(e.plugin.id),
      })),
    ...(registry.all().some((e) => e.plugin.id === "webchat")
      ? { webchat: { page: () => webchatPage({ title: hub.title }), csp: webchatPageCsp } }
      : {}),
  });
  const server: ListeningServer = await listen(app, config.gateway.bind, config.gateway.port);
  const publicUrl = () => config.gateway.publicUrl?.replace(/\/$/, "") ?? server.url;
  const socket = attachWebchatSocket(server.server, hub, { authenticate: (given) => given === token });

  await Promise.all(registry.all().map((e) => e.supervisor.start()));
  const heartbeats = await startHeartbeats({ config, agents, registry, sessionsOf, queue, turns, logger });

  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    token,
    tokenGenerated: generated,
    registry,
    close: () => {
      closing ??= (async () => {
        const deadline = config.gateway.shutdownTimeoutMs;
        await Promise.all(heartbeats.map((h) => h.stop()));
        const drained = await queue.drain(deadline);
        if (!drained.drained) logger.warn({ abandoned: drained.abandoned }, "shutdown deadline: abandoned turns");
        await Promise.all(registry.all().map((e) => e.supervisor.stop()));
        await socket.close();
        await server.close();
        await index.flush();
        await stores.flush();
        await sessions.flush();
        await hub.close();
      })().catch((error: unknown) => {
        logger.error({ err: toChorusError(error).message }, "unclean shutdown");
      });
      return closing;
    },
  };
}
