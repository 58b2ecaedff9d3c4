import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redactor } from "@chorus/channel-kit";
import { MemoryStore } from "@chorus/channel-kit/state";
import type { InboundMessageEvent } from "@chorus/core";
import { pino } from "pino";
import {
  accountKey,
  type ChannelEntry,
  ChannelRegistry,
  ChannelSupervisor,
  collectYoungGenerationWhenFull,
  createLogger,
  createPipeline,
  DemoLanguageModel,
  ExternalTurns,
  type LanguageModelV3CallOptions,
  MessageIndex,
  type MessageToolCalls,
  MessageToolExecutor,
  ModelFailures,
  OpenedSessions,
  PairingStore,
  parseConfig,
  resolveAgents,
  runAsGateway,
  StateStore,
  SystemEvents,
  TurnQueue,
} from "../../src/testing/index.js";
import { BENCH_CHANNEL_ID, type BenchChannel, createBenchChannel } from "./bench-channel.js";

/** What one message through the harness measured. */
export interface DispatchSample {
  /** The message went to a direct chat (with `dmScope: "main"` all direct chats share one session). */
  direct: boolean;
  /** `emit(event)` → the turn hands its prompt to the model (`doGenerate`), in microseconds. */
  dispatchUs: number;
  /** When the message was emitted (`performance.now()`), to place the sample beside GC pauses. */
  emittedAt: number;
  /** `emit(event)` → the turn committed and its reply sent from the outbox, in ms. */
  turnMs: number;
}

/** The gateway's inbound path, built from its real classes around a channel with no platform. */
export interface DispatchHarness {
  /** Emits one message into conversation number `conversation` and waits until its turn committed. */
  message(conversation: number): Promise<DispatchSample>;
  readonly channel: BenchChannel;
  /** Stops the channel, flushes the stores, restores the demo model and removes the temp home. */
  close(): Promise<void>;
}

export interface DispatchHarnessOptions {
  /** Every `directEvery`-th conversation is a direct chat, the rest are groups. */
  directEvery?: number;
  /**
   * Profiling only: the inbox commit without its WAL sync (nothing waits for the disk before the
   * acknowledgement), to show how much the sync still costs the turn. The gateway never does this.
   */
  inboxWithoutFsync?: boolean;
}

interface Waiting {
  text: string;
  modelAt?: number;
  committed(error?: unknown): void;
}

/**
 * The gateway's path from a channel's `emit(event)` to the model call, exactly as `startGateway`
 * wires it: `ChannelSupervisor` → the pipeline `createPipeline` builds (receive: the durable inbox on
 * SQLite, with its dedupe key and the inbound ref, `sessionKeyFor`; schedule: `TurnQueue`, the
 * session's next inbox row; decide; handle: the real `TurnRunner` — session store, transcript history
 * from the database, `message` tool schema, system prompt, typing indicator — then commit and
 * deliver) → `runTurn` → the turn loop → the default model of a config-less gateway, the offline demo model.
 *
 * The clock stops when the turn loop calls the model's `doGenerate`: that is the moment a real turn
 * would start waiting for a model, so everything before it is the gateway's own overhead and
 * nothing of the model is counted (the demo's `doGenerate` is wrapped only to read the clock).
 * The channel costs nothing (see `createBenchChannel`), so no platform time is counted either.
 */
export async function createDispatchHarness(options: DispatchHarnessOptions = {}): Promise<DispatchHarness> {
  const directEvery = options.directEvery ?? 5;
  const home = await mkdtemp(join(tmpdir(), "chorus-bench-dispatch-"));
  const logger = createLogger({ destination: pino.destination({ dest: "/dev/null", sync: false }) });
  const config = parseConfig({}, { env: {} });
  const agents = resolveAgents(config);
  const channel = createBenchChannel();
  const registry = new ChannelRegistry();
  const state = await StateStore.open({ backend: "sqlite" }, { home });
  if (options.inboxWithoutFsync) {
    const tx = state.db.tx.bind(state.db);
    state.db.tx = (work, txOptions) => tx(work, { ...txOptions, durable: false });
  }
  const index = new MessageIndex({ db: state.db, refs: state.refs });
  const queue = new TurnQueue({ maxConcurrent: config.agents.defaults.maxConcurrentTurns });
  const sessions = new OpenedSessions(home, state);
  const sessionsOf = sessions.of;
  const executor = new MessageToolExecutor(registry, index);
  /** The deliver step sends a reply with its outbox row's idempotency key: the end of a turn's way. */
  let onDelivered: (error?: unknown) => void = () => {};
  const tools: MessageToolCalls = {
    async execute(input, scope, callOptions) {
      if (callOptions?.idempotencyKey === undefined) return executor.execute(input, scope, callOptions);
      try {
        const sent = await executor.execute(input, scope, callOptions);
        onDelivered();
        return sent;
      } catch (error) {
        onDelivered(error);
        throw error;
      }
    },
  };
  const pipeline = createPipeline({
    config,
    agents,
    state,
    registry,
    index,
    queue,
    tools,
    sessionsOf,
    systemEvents: new SystemEvents(state),
    pairing: await PairingStore.open(state),
    failures: new ModelFailures(),
    external: new ExternalTurns(tools),
    fenceOf: () => undefined,
    runsHere: () => true,
    onReceived: () => {},
    shared: false,
    logger,
  });
  const supervisor: ChannelSupervisor = new ChannelSupervisor({
    plugin: channel.plugin,
    accountId: "default",
    logger,
    context: (signal) => ({
      config: {},
      accountId: "default",
      store: new MemoryStore(),
      stateDir: join(home, "channels", BENCH_CHANNEL_ID, "default"),
      logger,
      signal,
      // As runtime/accounts.ts: the gateway's own work runs outside the channel's containment context.
      emit: (event) => runAsGateway(() => pipeline.receive(entry, event)),
      http: { route: () => {}, url: (path) => `http://127.0.0.1/hooks/${BENCH_CHANNEL_ID}${path}` },
    }),
  });
  // Every message is let in and mentions the bot: the bench measures dispatch, not refusals.
  const entry: ChannelEntry = {
    plugin: channel.plugin,
    capabilities: channel.plugin.capabilities,
    accountId: "default",
    key: accountKey(BENCH_CHANNEL_ID, "default"),
    builtin: false,
    settings: { dmPolicy: "open", groupPolicy: "open" },
    supervisor,
    redactor: new Redactor(),
  };
  registry.add(entry);

  let waiting: Waiting | undefined;
  const originalGenerate = DemoLanguageModel.prototype.doGenerate;
  DemoLanguageModel.prototype.doGenerate = function timedGenerate(this: DemoLanguageModel, call) {
    const at = performance.now();
    // A group turn wraps the text (sender name, `[from: …]` marker), so look for it inside.
    if (waiting && waiting.modelAt === undefined && lastUserText(call)?.includes(waiting.text)) waiting.modelAt = at;
    return originalGenerate.call(this, call);
  };
  await supervisor.start();
  if (supervisor.status().state !== "running")
    throw new Error(`the bench channel did not start: ${JSON.stringify(supervisor.status())}`);
  // As `chorus start` once its gateway started.
  collectYoungGenerationWhenFull();

  let count = 0;
  return {
    channel,
    async message(conversation) {
      count++;
      const direct = conversation % directEvery === 0;
      const conversationId = direct ? `dm-${conversation}` : `group-${conversation}`;
      const text = `message ${count} for conversation ${conversation}`;
      const event: InboundMessageEvent = {
        type: "message",
        eventId: `event-${count}`,
        conversation: direct
          ? { id: conversationId, kind: "direct" }
          : { id: conversationId, kind: "group", title: `Group ${conversation}` },
        sender: { id: `user-${conversation}`, name: `User ${conversation}` },
        text,
        mentions: { bot: true, others: [] },
        ref: { channel: BENCH_CHANNEL_ID, accountId: "default", conversationId, messageId: `in-${count}` },
        timestamp: Date.now(),
      };
      let committedAt = 0;
      const current: Waiting = { text, committed: () => {} };
      const committed = new Promise<void>((resolve, reject) => {
        current.committed = (error) => {
          committedAt = performance.now();
          if (error === undefined) resolve();
          else reject(error);
        };
      });
      waiting = current;
      onDelivered = (error) => current.committed(error);
      const emittedAt = performance.now();
      channel.emit(event);
      await committed;
      waiting = undefined;
      if (current.modelAt === undefined) throw new Error(`the turn for "${text}" committed without calling the model`);
      return {
        direct,
        emittedAt,
        dispatchUs: (current.modelAt - emittedAt) * 1000,
        turnMs: committedAt - emittedAt,
      };
    },
    async close() {
      DemoLanguageModel.prototype.doGenerate = originalGenerate;
      await queue.drain(10_000);
      pipeline.stop();
      await supervisor.stop();
      await index.flush();
      await sessions.close();
      await state.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** The text of the last user message of a model call's prompt. */
function lastUserText(call: LanguageModelV3CallOptions): string | undefined {
  const message = call.prompt.findLast((m) => m.role === "user");
  if (message?.role !== "user") return undefined;
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}
