import type { Redactor } from "@chorus/channel-kit";
import { ChorusError, toChorusError } from "@chorus/core";
import type { Logger } from "pino";
import { assertProviderInstalled, ModelFailures } from "../agent/index.js";
import { ChannelRegistry, MediaSends, MessageToolExecutor } from "../channels/index.js";
import { isLoopback, type LoadedConfig, resolveAgents } from "../config/index.js";
import { OperatorEvents } from "../events/index.js";
import { startHeartbeats } from "../heartbeat/index.js";
import { GatewayMetrics } from "../metrics/index.js";
import { createPipeline, DEDUPE_WINDOW_MS } from "../pipeline/index.js";
import { TurnQueue } from "../sessions/index.js";
import type { ChorusPaths } from "../support/index.js";
import { understandingFor } from "../understand/index.js";
import { createAgentApi } from "./agent-api.js";
import { createChannels } from "./create-channels.js";
import { createHttp } from "./create-http.js";
import { createLeases } from "./create-leases.js";
import { openState } from "./open-state.js";
import { securePrivateHome } from "./private-home.js";
import { resolveToken } from "./token.js";

export interface StartGatewayOptions {
  paths: ChorusPaths;
  loaded: LoadedConfig;
  logger: Logger;
  /** Directory of the gateway package (for discovery of plugins installed next to it). */
  gatewayDir?: string;
  /** Takes the gateway's secrets out of HTTP error answers and the model failures `/status` shows. */
  redactor?: Redactor | undefined;
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

/** Starts the gateway (DESIGN §5, §6): it lists the assemblies, each in its own file, in the order they need each other. */
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

  const kept = await openState(config, paths, logger);
  const { state, shared, gatewayId } = kept;
  const registry = new ChannelRegistry();
  // What every step counts, and the drops and refusals the operator's event stream shows.
  const metrics = new GatewayMetrics();
  const operator = new OperatorEvents();
  const sends = new MediaSends(state, kept.media, (channel, bytes) => metrics.media(channel, "out", bytes));
  const tools = new MessageToolExecutor(registry, kept.index, sends);
  // Inbound attachments: downloaded into the media store once, by whoever reads a message first (its turn, /v1/events, MCP).
  const understanding = understandingFor(config, kept.media.store, state, logger, (channel, bytes) =>
    metrics.media(channel, "in", bytes),
  );
  const agentApi = createAgentApi({
    ...kept,
    registry,
    tools,
    retentionMs: DEDUPE_WINDOW_MS,
    operator,
    understanding,
    maxExtractChars: config.media.maxExtractChars,
    logger,
  });
  const leases = createLeases({ config, state, shared, gatewayId, registry, logger });
  const queue = new TurnQueue({ maxConcurrent: config.agents.defaults.maxConcurrentTurns });
  const pipeline = createPipeline({
    config,
    agents,
    state,
    registry,
    index: kept.index,
    queue,
    tools,
    sessionsOf: kept.sessions.of,
    systemEvents: kept.systemEvents,
    pairing: kept.pairing,
    failures: new ModelFailures(options.redactor),
    external: agentApi.external,
    fenceOf: leases.fenceOf,
    runsHere: leases.runsHere,
    onReceived: () => agentApi.events.notify(),
    shared,
    metrics,
    operator,
    // Inbound attachments: downloaded into the media store, transcribed, read for the agent (DESIGN §2.6).
    media: understanding,
    logger,
  });
  const served = { publicUrl: "" };
  const channels = await createChannels({
    ...options,
    agents,
    state,
    registry,
    receive: pipeline.receive,
    media: kept.media.store,
    onUnreadable: (channel, account, problem) => {
      metrics.received(channel, account, "unreadable");
      operator.publish({ outcome: "unreadable", channel, account, reason: problem });
    },
    publicUrl: () => served.publicUrl,
  });
  const http = await createHttp({
    config,
    token,
    registry,
    hooks: channels.hooks,
    leases,
    agentApi,
    webchat: channels.webchat,
    state,
    media: kept.media,
    metrics,
    operator,
    gatewayId,
    logger,
    ...(options.redactor ? { redactor: options.redactor } : {}),
  });
  served.publicUrl = http.publicUrl;
  await leases.start(channels.accounts, () => void pipeline.sweep().catch(() => undefined));
  // Several gateways: every second (work a dead gateway left); one: every 5 s (replies waiting for a channel to run).
  await pipeline.start(shared ? 1_000 : 5_000);
  const heartbeats = await startHeartbeats({
    config,
    agents,
    registry,
    sessionsOf: kept.sessions.of,
    queue,
    turn: pipeline.turn,
    state,
    shared,
    beatsHere: leases.beatsHere,
    fenceFor: leases.heartbeatFence,
    logger,
  });

  let closing: Promise<void> | undefined;
  return {
    url: http.url,
    token,
    tokenGenerated: generated,
    registry,
    gatewayId,
    close: () => {
      closing ??= (async () => {
        await Promise.all(heartbeats.map((h) => h.stop()));
        const drained = await queue.drain(config.gateway.shutdownTimeoutMs);
        pipeline.stop();
        if (!drained.drained) logger.warn({ abandoned: drained.abandoned }, "shutdown deadline: abandoned turns");
        await agentApi.close();
        await leases.stop();
        await channels.close();
        await http.close();
        await kept.close();
      })().catch((error: unknown) => {
        logger.error({ err: toChorusError(error).message }, "unclean shutdown");
      });
      return closing;
    },
  };
}
