import type { Logger } from "pino";
import type { ChannelRegistry } from "../channels/registry.js";
import type { ResolvedAgent } from "../config/agents.js";
import type { GatewayConfig } from "../config/schema.js";
import { DEFAULT_HEARTBEAT_PROMPT, HeartbeatScheduler } from "../heartbeat/scheduler.js";
import type { AgentSessions, TurnQueue } from "../sessions/index.js";
import type { TurnRunner } from "../turn/run.js";

export interface HeartbeatDeps {
  config: GatewayConfig;
  agents: readonly ResolvedAgent[];
  registry: ChannelRegistry;
  sessionsOf(agentId: string): Promise<AgentSessions>;
  queue: TurnQueue;
  turns: TurnRunner;
  logger: Logger;
}

/**
 * `agents.defaults.heartbeat.every`: a scheduler per agent that runs a turn in each direct
 * session through the session's queue (groups are skipped by the scheduler).
 */
export async function startHeartbeats(deps: HeartbeatDeps): Promise<HeartbeatScheduler[]> {
  const heartbeat = deps.config.agents.defaults.heartbeat;
  if (!heartbeat) return [];
  const schedulers: HeartbeatScheduler[] = [];
  for (const agent of deps.agents) {
    // An outside agent hears nothing but chat events: no heartbeats for it.
    if (agent.model.provider === "external") continue;
    const { store } = await deps.sessionsOf(agent.id);
    const scheduler = new HeartbeatScheduler({
      everyMs: heartbeat.every,
      logger: deps.logger,
      sessions: () => store.entries(),
      run: (session, signal) =>
        deps.queue.run(session.key, async () => {
          const entry = deps.registry
            .all()
            .find((e) => e.plugin.id === session.channel && e.accountId === session.accountId);
          if (!entry?.supervisor.instance) return;
          await deps.turns.run({
            entry,
            agent,
            sessionKey: session.key,
            init: session,
            conversation: { id: session.conversationId, kind: session.chatType },
            userText: heartbeat.prompt ?? DEFAULT_HEARTBEAT_PROMPT,
            mentioned: true,
            signal,
          });
        }),
    });
    scheduler.start();
    schedulers.push(scheduler);
  }
  return schedulers;
}
