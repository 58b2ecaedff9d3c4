import type { InboundMessageEvent, InboundReactionEvent } from "@chorus/core";
import type { Logger } from "pino";
import type { ChannelEntry, ChannelRegistry } from "../channels/index.js";
import { summariseTranscript } from "../commands/index.js";
import type { ResolvedAgent } from "../config/index.js";
import type { OperatorEvents } from "../events/index.js";
import type { GatewayMetrics, TurnEnd } from "../metrics/index.js";
import type { ReactionNotifier } from "../reaction-notifications/index.js";
import type { AgentSessions } from "../sessions/index.js";
import type { InboxOutcome, InboxRow, MessageIndex, Sql } from "../state/index.js";
import type { ReplyDraft, TurnRequest, TurnRunner } from "../turn/index.js";
import type { MediaUnderstanding } from "../understand/index.js";
import type { Committer, Completion } from "./commit.js";
import { type MessageGate, sessionInit } from "./decide.js";
import { mediaOf, withReplyFromIndex } from "./decide-inputs.js";
import type { Deliver } from "./deliver.js";
import type { StepContext } from "./schedule.js";

export interface HandlerOptions {
  registry: ChannelRegistry;
  agentFor(entry: ChannelEntry): ResolvedAgent;
  sessionKeyOf(entry: ChannelEntry, event: InboundMessageEvent, agent: ResolvedAgent): string;
  sessionsOf(agentId: string): Promise<AgentSessions>;
  index: MessageIndex;
  gate: MessageGate;
  turns: TurnRunner;
  reactions: ReactionNotifier;
  committer: Committer;
  deliver: Deliver;
  /** The fencing check of an account that runs under a lease. */
  fenceOf(entry: ChannelEntry): ((sql: Sql) => Promise<void>) | undefined;
  /** Counts outcomes, turns and the model's time. */
  metrics?: GatewayMetrics | undefined;
  /** Where a message a rule blocked is reported to the operator. */
  operator?: OperatorEvents | undefined;
  /** Reads messages' attachments (download into the media store, transcription); none: text only. */
  media?: MediaUnderstanding | undefined;
  logger: Logger;
  /**
   * Several gateways share the database (PostgreSQL): a session's entry is read again before a
   * step, since another gateway may have run its last turn. On SQLite this gateway is the only
   * writer of its sessions, and the entry it holds is the committed one.
   */
  shared: boolean;
}

/** The handle step, per committed inbox row (see `createHandler`). */
export interface Handler {
  /** Handles a message row; resolves true when its commit was only started, added to `step.commits` (kept as context). */
  message(row: InboxRow, signal: AbortSignal, step: StepContext): Promise<boolean>;
  /** Handles a reaction whose row is committed, and marks the row done; never rejects. */
  reaction(entry: ChannelEntry, event: InboundReactionEvent, inboxId: number): Promise<void>;
  /** A reaction row a crash left (the schedule step's sweep claimed it: its row is done already). */
  reactionRow(row: InboxRow): Promise<void>;
  /** Runs a turn, commits what it answers and sends the reply (a triggered message, a heartbeat). */
  turn(request: TurnRequest, commit: Omit<Completion, "transcript" | "sessions" | "replies">): Promise<void>;
}

/**
 * The handle step: what the decide step says of a message is done here — blocked (a pairing
 * code may be its reply), a command's answer, buffered as context, an echo skipped, or a turn run —
 * and whatever it leaves is committed with its inbox row (the commit step), with its outcome (what
 * `chorus trace` shows), the reply then sent (the deliver step). Reactions become notes for their
 * session's next turn.
 */
export function createHandler(options: HandlerOptions): Handler {
  const { committer, deliver, gate, turns, logger, metrics } = options;

  const turn: Handler["turn"] = async (request, commit) => {
    const { agent, entry } = request;
    const started = performance.now();
    metrics?.turnStarted(agent.id, entry.plugin.id);
    let end: TurnEnd = "aborted";
    try {
      const answer = await turns.run(request);
      end = answer.outcome;
      const { model } = answer;
      metrics?.model(agent.id, model.provider, model.ms / 1000, model.error?.code);
      const outcome: InboxOutcome = {
        outcome: answer.outcome,
        agent: agent.id,
        provider: model.provider,
        modelMs: Math.round(model.ms),
        turnMs: Math.round(performance.now() - started),
        ...(model.error ? { reason: `${model.error.code}: ${model.error.message}` } : {}),
      };
      try {
        const rows = await committer.commit({
          ...commit,
          outcome,
          transcript: answer.transcript,
          sessions: [answer.session],
          replies: answer.reply ? [answer.reply] : [],
          also: async (sql) => {
            if (commit.also) await commit.also(sql);
            await answer.also(sql);
          },
        });
        answer.committed();
        // Counted once committed: a commit refused by a state outage leaves the row to be handled again.
        if (commit.inboxId !== undefined) metrics?.handledAs(entry.plugin.id, entry.accountId, answer.outcome);
        if (rows.length > 0) {
          await answer.beforeReply();
          await deliver(rows);
        }
      } finally {
        await answer.end();
      }
    } finally {
      metrics?.turnFinished(agent.id, entry.plugin.id, end, (performance.now() - started) / 1000);
    }
  };

  const message: Handler["message"] = async (row, signal, step) => {
    const entry = options.registry.get(row.channel, row.account);
    const agent = options.agentFor(entry);
    const attributed = withReplyFromIndex(options.index, entry, row.event as InboundMessageEvent);
    const event = attributed instanceof Promise ? await attributed : attributed;
    const sessionKey = row.sessionKey ?? options.sessionKeyOf(entry, event, agent);
    const { store, transcripts } = await options.sessionsOf(agent.id);
    // Another gateway may have run this session's last turn: start from what is committed.
    if (options.shared && !step.fresh) await store.refresh(sessionKey);
    const fence = options.fenceOf(entry);
    const earlier = () => step.commits.settled();
    /**
     * Commits what the message left, with its outcome. Leaving no reply and no session change, its
     * commit is only started, added to the step's (true); otherwise it waits for the earlier ones,
     * then commits, so a session entry is never overwritten by an older one committed later.
     */
    const finish = async (
      outcome: InboxOutcome,
      reply?: string,
      more: Pick<Completion, "buffered" | "also"> = {},
    ): Promise<boolean> => {
      const counted = <T>(rows: T): T => {
        metrics?.handledAs(entry.plugin.id, entry.accountId, outcome.outcome);
        return rows;
      };
      const replies = reply === undefined ? [] : [draft(entry, event, reply)];
      const sessions = store.takeChanges(sessionKey);
      const completion: Completion = {
        sessionKey,
        inboxId: row.id,
        outcome,
        ...more,
        sessions,
        replies,
        ...(fence ? { fence } : {}),
      };
      if (replies.length === 0 && sessions.length === 0) {
        step.commits.add(committer.commit(completion).then(counted));
        return true;
      }
      await earlier();
      await deliver(counted(await committer.commit(completion)));
      return false;
    };
    const decision = await gate.decide({
      entry,
      event,
      agent,
      sessionKey,
      inboxId: row.id,
      bot: entry.supervisor.instance?.identity?.(),
      store,
      transcripts,
      summarise: (entries) => summariseTranscript(agent, entries, signal),
      earlier,
      ...mediaOf(options.media, entry, row.id, event, signal),
    });
    // Built only for `--verbose`: a group's chatter is buffered by the thousand.
    const context = () => ({
      channel: entry.plugin.id,
      from: event.conversation.id,
      sender: event.sender.id,
      sessionKey,
    });
    const verbose = logger.isLevelEnabled("debug");
    switch (decision.kind) {
      case "blocked":
        if (verbose) logger.debug({ ...context(), reason: decision.reason }, "blocked inbound message");
        options.operator?.publish({
          outcome: "blocked",
          channel: entry.plugin.id,
          account: entry.accountId,
          eventId: row.eventId,
          messageId: event.ref.messageId,
          conversationId: event.conversation.id,
          senderId: event.sender.id,
          inboxId: String(row.id),
          reason: decision.reason,
        });
        return finish({ outcome: "blocked", reason: decision.reason }, decision.reply);
      case "command":
        return finish({ outcome: "command" }, decision.reply);
      case "buffered":
        if (verbose) logger.debug({ ...context(), reason: decision.reason }, "buffered group message as context");
        return finish({ outcome: "buffered", reason: decision.reason }, undefined, { buffered: true });
      case "echo":
        if (verbose) logger.debug(context(), "skipped a repeated batch (echo suppression)");
        return finish(
          { outcome: "echo", reason: "the same batch again without a mention (echo suppression)" },
          undefined,
          decision.settle ? { also: decision.settle } : {},
        );
      case "run":
        await earlier();
        await turn(
          {
            entry,
            agent,
            sessionKey,
            init: sessionInit(entry, event, agent),
            conversation: event.conversation,
            trigger: { ref: event.ref, senderName: event.sender.name ?? event.sender.id, text: event.text },
            userText: decision.userText,
            ...(decision.images ? { images: decision.images } : {}),
            mentioned: decision.mentioned,
            ...(decision.intro ? { intro: decision.intro } : {}),
            signal,
            receivedAt: row.receivedAt,
          },
          {
            sessionKey,
            inboxId: row.id,
            ...(fence ? { fence } : {}),
            ...(decision.settle ? { also: decision.settle } : {}),
          },
        );
        return false;
    }
  };

  const reaction: Handler["reaction"] = async (entry, event, inboxId) => {
    try {
      await options.reactions.handle(entry, event);
    } catch (error) {
      logger.error({ err: error, channel: entry.plugin.id }, "reaction handling failed");
    }
    await committer
      .commit({ sessionKey: "", inboxId, outcome: { outcome: "reaction" }, sessions: [], replies: [] })
      .then(() => metrics?.handledAs(entry.plugin.id, entry.accountId, "reaction"))
      .catch((error: unknown) => logger.warn({ err: error }, "could not mark a reaction handled"));
  };

  const reactionRow: Handler["reactionRow"] = async (row) => {
    const entry = options.registry.get(row.channel, row.account);
    await options.reactions.handle(entry, row.event as InboundReactionEvent);
  };

  return { message, reaction, reactionRow, turn };
}

/** A reply of the gateway itself (a command's answer, a pairing code) as an outbox row. */
function draft(entry: ChannelEntry, event: InboundMessageEvent, text: string): ReplyDraft {
  const conversation = event.conversation;
  return {
    text,
    scope: {
      channel: entry.plugin.id,
      accountId: entry.accountId,
      conversation: { id: conversation.id, ...(conversation.threadId ? { threadId: conversation.threadId } : {}) },
      message: event.ref,
    },
    ...(conversation.kind === "group" ? { replyTo: event.ref.messageId } : {}),
  };
}
