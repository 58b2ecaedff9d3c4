import type { Logger } from "pino";
import type { ChannelRegistry } from "../channels/index.js";
import type { GatewayConfig, ResolvedAgent } from "../config/index.js";
import type { Handler } from "../pipeline/index.js";
import type { AgentSessions, SessionEntry, TurnQueue } from "../sessions/index.js";
import type { Sql, StateStore } from "../state/index.js";
import { DEFAULT_HEARTBEAT_PROMPT, HeartbeatScheduler } from "./scheduler.js";

export interface HeartbeatDeps {
  config: GatewayConfig;
  agents: readonly ResolvedAgent[];
  registry: ChannelRegistry;
  sessionsOf(agentId: string): Promise<AgentSessions>;
  queue: TurnQueue;
  /** Runs a turn, commits it and sends its reply (the pipeline's handle step). */
  turn: Handler["turn"];
  state: StateStore;
  /** Several gateways share the database: sessions are listed from it, and each is beaten by one gateway. */
  shared: boolean;
  /** Whether this gateway beats this session now (several gateways: exactly one of them does). */
  beatsHere(session: SessionEntry): boolean;
  /** The fencing check of a heartbeat turn's commit in this session (the lease it runs under). */
  fenceFor(session: SessionEntry): ((sql: Sql) => Promise<void>) | undefined;
  logger: Logger;
}

/**
 * `agents.defaults.heartbeat.every`: a scheduler per agent that runs a turn in each direct
 * session through the session's queue (groups are skipped by the scheduler). With several
 * gateways, a session is beaten only where `beatsHere` says (the gateway holding its account's
 * lease, or for accounts that run everywhere the one holding the `heartbeats` lease), under the
 * session's lock like any other step of it.
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
      sessions: async () => (deps.shared ? await store.refreshAll() : store.entries()).filter(deps.beatsHere),
      run: (session, signal) =>
        deps.queue.run(session.key, async () => {
          const entry = deps.registry.find(session.channel, session.accountId);
          if (!entry?.supervisor.instance) return;
          const locked = await deps.state.db.withLock(`session:${session.key}`, async () => {
            // Another gateway may have run this session's last turn: start from what is committed.
            if (deps.shared) await store.refresh(session.key);
            const fence = deps.fenceFor(session);
            await deps.turn(
              {
                entry,
                agent,
                sessionKey: session.key,
                init: session,
                conversation: { id: session.conversationId, kind: session.chatType },
                userText: heartbeat.prompt ?? DEFAULT_HEARTBEAT_PROMPT,
                mentioned: true,
                signal,
              },
              { sessionKey: session.key, ...(fence ? { fence } : {}) },
            );
          });
          if (!locked.ran) deps.logger.debug({ sessionKey: session.key }, "heartbeat skipped: the session is busy");
        }),
    });
    scheduler.start();
    schedulers.push(scheduler);
  }
  return schedulers;
}
