import { dirname } from "node:path";
import { type ChannelPlugin, ChorusError, toChorusError } from "@chorus/core";
import type { Logger } from "pino";
import { PairingStore } from "../access/pairing-store.js";
import { ModelFailures } from "../agent/failures.js";
import { assertProviderInstalled } from "../agent/provider-package.js";
import { restartBackoffFromEnv } from "../channels/backoff.js";
import { MessageToolExecutor } from "../channels/message-tool.js";
import { ChannelRegistry } from "../channels/registry.js";
import { agentFor, isLoopback, type LoadedConfig, resolveAgents } from "../config/index.js";
import { type ChorusPaths, channelStateDir } from "../home.js";
import { createHttpApp } from "../http/app.js";
import { HookRegistry } from "../http/hooks.js";
import { type ListeningServer, listen } from "../http/server.js";
import { GATEWAY_PACKAGE_DIR } from "../package-dir.js";
import { webchatBuiltin } from "../plugins/builtin.js";
import { discoverChannels } from "../plugins/discover.js";
import { SystemEvents } from "../reaction-notifications/system-events.js";
import { OpenedSessions, type SessionEntry, TurnQueue } from "../sessions/index.js";
import { MessageIndex } from "../state/index.js";
import { TurnCommitter } from "../turn/commit.js";
import { TurnRunner } from "../turn/run.js";
import { attachWebchatSocket, createWebchatPlugin, WebchatHub, webchatPage, webchatPageCsp } from "../webchat/index.js";
import { configureAccounts } from "./accounts.js";
import { createAgentApi } from "./agent-api.js";
import { Dispatcher } from "./dispatcher.js";
import { MessageGate } from "./gate.js";
import { startHeartbeats } from "./heartbeats.js";
import { InboundRouter } from "./inbound.js";
import { InboxWriter } from "./inbox.js";
import { LeaseKeeper } from "./leases.js";
import { securePrivateHome } from "./private-home.js";
import { gatewayIdOf, openGatewayState } from "./state-setup.js";
import { resolveToken } from "./token.js";

/** The lease whose holder sends the heartbeats of accounts that run on every gateway. */
const HEARTBEATS_LEASE = "heartbeats";

/** How long a handled event's id is remembered (a redelivery within it is recognised). */
const DEDUPE_WINDOW_MS = 7 * 86_400_000;

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
  /** This gateway's name in leases. */
  gatewayId: string;
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
  securePrivateHome(paths, logger);
  const { token, generated } = await resolveToken(config.gateway.auth.token, paths.tokenFile);
  const agents = resolveAgents(config);
  // A provider that is not installed is said now, not at the first turn (which loads it).
  for (const agent of agents) assertProviderInstalled(agent.id, agent.model.provider, options.gatewayDir);
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
    builtins: [webchatBuiltin(webchat as ChannelPlugin<unknown>)],
  });
  for (const problem of discovery.problems) logger.warn({ problem }, "plugin discovery problem");

  const state = await openGatewayState(config, paths, logger);
  const gatewayId = gatewayIdOf(config);
  const shared = state.backend === "postgres";
  const hooks = new HookRegistry();
  const registry = new ChannelRegistry();
  const index = new MessageIndex({
    db: state.db,
    refs: state.refs,
    onWarning: (message, error) => logger.warn({ err: error }, message),
  });
  const queue = new TurnQueue({ maxConcurrent: config.agents.defaults.maxConcurrentTurns });
  const tools = new MessageToolExecutor(registry, index);
  const committer = new TurnCommitter(state, tools, logger);
  const sessions = new OpenedSessions(paths.home, state);
  const sessionsOf = sessions.of;
  const systemEvents = new SystemEvents(state);
  const failures = new ModelFailures();
  const pairing = await PairingStore.open(state);
  const gate = new MessageGate({ config, failures, state, pairing });
  const agentApi = createAgentApi({ registry, state, index, tools, pairing, retentionMs: DEDUPE_WINDOW_MS, logger });
  const { external } = agentApi;
  const turns = new TurnRunner({ config, sessionsOf, tools, committer, systemEvents, failures, external, logger });
  const leased = new Set<string>();
  const leases = new LeaseKeeper({
    state,
    holder: gatewayId,
    ttlMs: config.state.backend === "postgres" ? config.state.leaseMs : 10_000,
    logger,
    onAcquired: () => void dispatcher.sweep().catch(() => undefined),
  });
  const fenceOf = (channel: string, account: string) => leases.fence(`${channel}:${account}`);
  const router = new InboundRouter({
    config,
    agentFor: (entry) => agentFor(agents, entry.settings),
    sessionsOf,
    index,
    inbox: new InboxWriter(state, fenceOf, () => agentApi.events.notify()),
    registry,
    committer,
    fenceOf,
    gate,
    turns,
    tools,
    systemEvents,
    logger,
    shared,
  });
  const runsHere = (channel: string, account: string): boolean => {
    if (!registry.find(channel, account)) return false;
    return !leased.has(`${channel}:${account}`) || leases.held(`${channel}:${account}`) !== undefined;
  };
  const dispatcher = new Dispatcher({
    state,
    queue,
    committer,
    runsHere,
    handle: (row, signal, step) => router.process(row, signal, step),
    handleLoose: (row) => router.processLoose(row),
    logger,
  });
  router.dispatcher = dispatcher;
  const accounts = await configureAccounts({
    channelsConfig,
    discovery,
    paths,
    state,
    logger,
    hooks,
    registry,
    restartBackoff,
    publicUrl: () => publicUrl(),
    accept: (entry, event) => router.accept(entry, event),
  });

  const app = createHttpApp({
    token,
    maxBodyBytes: config.gateway.maxBodyBytes,
    hooks,
    tools: external,
    logger,
    events: (after, write, signal) => agentApi.events.stream(after, write, signal),
    mcp: (request) => agentApi.mcp.handle(request),
    channels: () =>
      registry.all().map((e) => ({
        id: e.plugin.id,
        account: e.accountId,
        label: e.plugin.label,
        status: e.supervisor.status(),
        holder: leased.has(`${e.plugin.id}:${e.accountId}`)
          ? (leaseHolders.get(`${e.plugin.id}:${e.accountId}`) ?? "")
          : gatewayId,
        leased: leased.has(`${e.plugin.id}:${e.accountId}`),
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

  // With several gateways, each account that holds a connection runs where its lease is; the rest everywhere.
  const leaseHolders = new Map<string, string>();
  const local = accounts.filter((a) => !(shared && a.holdsConnection));
  for (const account of accounts)
    if (shared && account.holdsConnection) leased.add(`${account.entry.plugin.id}:${account.entry.accountId}`);
  await Promise.all(local.map((a) => a.entry.supervisor.start()));
  // Heartbeats of accounts that run everywhere are sent by one gateway at a time: the one holding this lease.
  const beating = shared && config.agents.defaults.heartbeat !== undefined;
  leases.start([
    ...accounts
      .filter((a) => leased.has(`${a.entry.plugin.id}:${a.entry.accountId}`))
      .map((a) => ({
        name: `${a.entry.plugin.id}:${a.entry.accountId}`,
        start: async () => {
          a.entry.supervisor = a.supervise();
          await a.entry.supervisor.start();
        },
        stop: () => a.entry.supervisor.stop(),
      })),
    ...(beating ? [{ name: HEARTBEATS_LEASE, start: async () => undefined, stop: async () => undefined }] : []),
  ]);
  const watchHolders = async () => {
    for (const lease of await state.leases.all()) {
      leaseHolders.set(lease.name, lease.expiresAt > Date.now() ? lease.holder : "");
    }
  };
  const holders = shared ? setInterval(() => void watchHolders().catch(() => undefined), 2_000) : undefined;
  holders?.unref();
  // Whatever a crash left: messages received and not done, replies recorded and not sent.
  await dispatcher.sweep();
  // The dedupe record is kept a week; older done rows go, at start and every hour.
  const prune = () =>
    Promise.all([state.inbox.prune(Date.now() - DEDUPE_WINDOW_MS), systemEvents.prune()]).catch(() => 0);
  await prune();
  const pruning = setInterval(() => void prune(), 3_600_000);
  pruning.unref();
  // Several gateways: every second (work a dead gateway left); one: every 5 s (replies waiting for a channel to run).
  dispatcher.every(shared ? 1_000 : 5_000);
  // A session's heartbeat runs where its account's lease is, or (accounts that run everywhere) where the heartbeats lease is.
  const leaseOf = (session: SessionEntry) => {
    const name = `${session.channel}:${session.accountId}`;
    return leased.has(name) ? name : HEARTBEATS_LEASE;
  };
  const heartbeats = await startHeartbeats({
    config,
    agents,
    registry,
    sessionsOf,
    queue,
    turns,
    state,
    shared,
    beatsHere: (session) => !shared || leases.held(leaseOf(session)) !== undefined,
    fenceFor: (session) => (shared ? leases.fence(leaseOf(session)) : undefined),
    logger,
  });

  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    token,
    tokenGenerated: generated,
    registry,
    gatewayId,
    close: () => {
      closing ??= (async () => {
        const deadline = config.gateway.shutdownTimeoutMs;
        await Promise.all(heartbeats.map((h) => h.stop()));
        if (holders) clearInterval(holders);
        clearInterval(pruning);
        const drained = await queue.drain(deadline);
        dispatcher.stop();
        if (!drained.drained) logger.warn({ abandoned: drained.abandoned }, "shutdown deadline: abandoned turns");
        await agentApi.close();
        await leases.stop();
        await Promise.all(registry.all().map((e) => e.supervisor.stop()));
        await socket.close();
        await server.close();
        await index.flush();
        await sessions.close();
        await hub.close();
        await state.close();
      })().catch((error: unknown) => {
        logger.error({ err: toChorusError(error).message }, "unclean shutdown");
      });
      return closing;
    },
  };
}
