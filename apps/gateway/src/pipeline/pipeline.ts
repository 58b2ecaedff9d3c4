import type { InboundMessageEvent } from "@chorus/core";
import type { Logger } from "pino";
import type { PairingStore } from "../access/index.js";
import { isNamedOwner } from "../access/index.js";
import type { ModelFailures } from "../agent/index.js";
import type { AccountKey, ChannelEntry, ChannelRegistry, MessageToolCalls } from "../channels/index.js";
import { accountKey } from "../channels/index.js";
import { agentFor, type GatewayConfig, type ResolvedAgent } from "../config/index.js";
import type { OperatorEvents } from "../events/index.js";
import type { GatewayMetrics } from "../metrics/index.js";
import { ReactionNotifier, type SystemEvents } from "../reaction-notifications/index.js";
import { type AgentSessions, sessionKeyFor, type TurnQueue } from "../sessions/index.js";
import type { MessageIndex, Sql, StateStore } from "../state/index.js";
import { type ExternalTurns, TurnRunner } from "../turn/index.js";
import type { MediaUnderstanding } from "../understand/index.js";
import { Committer } from "./commit.js";
import { MessageGate } from "./decide.js";
import { createDeliver } from "./deliver.js";
import { createHandler, type Handler } from "./handle.js";
import { createReceive, InboxWriter, type Receive } from "./receive.js";
import { Scheduler } from "./schedule.js";
import { StateOutage } from "./state-outage.js";

/** How long a handled event's id is remembered (a redelivery within it is recognised). */
export const DEDUPE_WINDOW_MS = 7 * 86_400_000;

export interface PipelineOptions {
  config: GatewayConfig;
  agents: readonly ResolvedAgent[];
  state: StateStore;
  registry: ChannelRegistry;
  index: MessageIndex;
  queue: TurnQueue;
  /** Runs `message` calls: the agent's, and the deliver step's sends. */
  tools: MessageToolCalls;
  sessionsOf(agentId: string): Promise<AgentSessions>;
  systemEvents: SystemEvents;
  pairing: PairingStore;
  failures: ModelFailures;
  /** Where turns of outside agents wait for their answer. */
  external: ExternalTurns;
  /** The fencing check of an account's commits, when it runs under a lease. */
  fenceOf(key: AccountKey): ((sql: Sql) => Promise<void>) | undefined;
  /** Whether an account's turns run on this gateway now. */
  runsHere(key: AccountKey): boolean;
  /** Called after inbound rows were committed (the event stream reads them). */
  onReceived(): void;
  /** Several gateways share the state (PostgreSQL). */
  shared: boolean;
  /** What each step counts (outcomes, turns, the model, sends). */
  metrics?: GatewayMetrics | undefined;
  /** Where drops and refusals are reported to the operator (`/v1/events?operator=1`). */
  operator?: OperatorEvents | undefined;
  /** Reads messages' attachments into the media store and for the agent (DESIGN §2.6); none: text only. */
  media?: MediaUnderstanding | undefined;
  logger: Logger;
}

/** A message's way through the gateway, assembled (see `index.ts` for the steps). */
export interface Pipeline {
  /** The receive step: every channel account's `ctx.emit`. */
  receive: Receive;
  /** Runs a turn that no inbound message started (a heartbeat): committed and answered like any other. */
  turn: Handler["turn"];
  /** Starts: the work a crash left is resumed, the dedupe record pruned, and the sweep runs every `sweepEveryMs`. */
  start(sweepEveryMs: number): Promise<void>;
  /** Wakes every session with work left (a lease was just taken). */
  sweep(): Promise<void>;
  /** Stops taking new steps (in-flight turns are drained by the queue). */
  stop(): void;
  /** Since when the state database is unavailable (ms since the epoch), or undefined while it is not. */
  readonly stateUnavailableSince: number | undefined;
}

/** Assembles the steps: receive → schedule → decide → handle → commit → deliver. */
export function createPipeline(options: PipelineOptions): Pipeline {
  const { config, state, logger, metrics, operator } = options;
  const agentOf = (entry: ChannelEntry) => agentFor(options.agents, entry.settings);
  const sessionKeyOf = (entry: ChannelEntry, event: InboundMessageEvent, agent = agentOf(entry)) =>
    sessionKeyFor({
      agentId: agent.id,
      channel: entry.plugin.id,
      conversation: event.conversation,
      senderId: event.sender.id,
      dmScope: config.session.dmScope,
      owner: isNamedOwner(event.sender, entry.settings, entry.supervisor.instance?.identity?.()),
    });
  const committer = new Committer(state);
  const deliver = createDeliver({ state, tools: options.tools, logger, metrics });
  const handler = createHandler({
    registry: options.registry,
    agentFor: agentOf,
    sessionKeyOf,
    sessionsOf: options.sessionsOf,
    index: options.index,
    gate: new MessageGate({ config, failures: options.failures, state, pairing: options.pairing }),
    turns: new TurnRunner({
      config,
      sessionsOf: options.sessionsOf,
      tools: options.tools,
      systemEvents: options.systemEvents,
      failures: options.failures,
      external: options.external,
      logger,
    }),
    reactions: new ReactionNotifier({
      config,
      agentFor: agentOf,
      index: options.index,
      systemEvents: options.systemEvents,
      logger,
    }),
    committer,
    deliver,
    fenceOf: (entry) => options.fenceOf(accountKey(entry.plugin.id, entry.accountId)),
    metrics,
    operator,
    media: options.media,
    logger,
    shared: options.shared,
  });
  const outage = new StateOutage(logger);
  const scheduler = new Scheduler({
    state,
    queue: options.queue,
    deliver,
    runsHere: options.runsHere,
    handle: handler.message,
    handleLoose: handler.reactionRow,
    outage,
    logger,
  });
  const receive = createReceive({
    inbox: new InboxWriter(state, options.fenceOf, options.onReceived),
    sessionKeyOf: (entry, event) => sessionKeyOf(entry, event),
    wake: (sessionKey) => scheduler.wake(sessionKey),
    reaction: handler.reaction,
    outage,
    metrics,
    operator,
    logger,
  });
  const prune = () =>
    Promise.all([state.inbox.prune(Date.now() - DEDUPE_WINDOW_MS), options.systemEvents.prune()]).catch(() => 0);
  let pruning: NodeJS.Timeout | undefined;
  return {
    receive,
    turn: handler.turn,
    sweep: () => scheduler.sweep(),
    async start(sweepEveryMs) {
      // Whatever a crash left: messages received and not done, replies recorded and not sent.
      await scheduler.sweep();
      // The dedupe record is kept a week; older done rows go, at start and every hour.
      await prune();
      pruning = setInterval(() => void prune(), 3_600_000);
      pruning.unref();
      scheduler.every(sweepEveryMs);
    },
    stop() {
      if (pruning) clearInterval(pruning);
      scheduler.stop();
    },
    get stateUnavailableSince() {
      return outage.since;
    },
  };
}
