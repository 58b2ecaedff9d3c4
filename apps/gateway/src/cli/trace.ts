import type { InboundMessageEvent, InboundReactionEvent } from "@chorus/core";
import { DEDUPE_WINDOW_MS } from "../pipeline/index.js";
import { repliesTo, type StateStore, type TracedInbound, type TracedReply, traceInbound } from "../state/index.js";
import { cliContext, openCliState } from "./context.js";
import { formatTrace, type MessageTrace, type TraceResult } from "./trace-format.js";

/** Where `chorus trace` reads its environment and writes its output (tests swap them). */
export interface TraceCommandIo {
  env?: NodeJS.ProcessEnv;
  out?: (text: string) => void;
}

/**
 * `chorus trace`: what became of one inbound message — received (when, from whom, where), the
 * decision and why, the turn (its model time, its outcome), the reply and its delivery attempts —
 * from the state database (SQLite or PostgreSQL), like `chorus sessions`. Exit 1 when it is not there.
 */
export async function traceCommand(
  channel: string,
  id: string,
  options: { config?: string; account?: string; json?: boolean },
  io: TraceCommandIo = {},
): Promise<void> {
  const out = io.out ?? ((text: string) => process.stdout.write(text));
  const state = await openCliState(await cliContext(options, io.env));
  let result: TraceResult;
  try {
    result = await traceMessage(state, channel, id, options.account);
  } finally {
    await state.close();
  }
  if (!result.found) process.exitCode = 1;
  out(options.json ? `${JSON.stringify(result, null, 2)}\n` : formatTrace(result));
}

/** Looks a message up in the inbox and its replies in the outbox. */
export async function traceMessage(
  state: StateStore,
  channel: string,
  id: string,
  account?: string,
): Promise<TraceResult> {
  const rows = await traceInbound(state.db, channel, id, account);
  const messages: MessageTrace[] = [];
  for (const row of rows) messages.push(toTrace(row, await repliesTo(state.db, row)));
  const days = Math.round(DEDUPE_WINDOW_MS / 86_400_000);
  return {
    found: messages.length > 0,
    channel,
    id,
    ...(account !== undefined ? { account } : {}),
    lookedIn: `the inbox of ${state.where} (message ids and event ids of channel ${channel}${account !== undefined ? `, account ${account}` : ""}; handled events are kept ${days} days)`,
    messages,
  };
}

function toTrace(row: TracedInbound, replies: readonly TracedReply[]): MessageTrace {
  const iso = (ms: number) => new Date(ms).toISOString();
  const event = row.event as InboundMessageEvent | InboundReactionEvent;
  const who = event.type === "reaction" ? event.actor : event.sender;
  const { conversation } = event;
  return {
    inboxId: row.id,
    channel: row.channel,
    account: row.account,
    eventId: row.eventId,
    ...(row.messageId !== undefined ? { messageId: row.messageId } : {}),
    kind: event.type,
    receivedAt: iso(row.receivedAt),
    from: { id: who.id, ...(who.name !== undefined ? { name: who.name } : {}) },
    conversation: {
      id: conversation.id,
      kind: conversation.kind,
      ...(conversation.title !== undefined ? { title: conversation.title } : {}),
      ...(conversation.threadId !== undefined ? { threadId: conversation.threadId } : {}),
    },
    text:
      event.type === "reaction"
        ? `${event.action === "added" ? "reacted" : "removed the reaction"} ${event.emoji} ${event.action === "added" ? "to" : "from"} message ${event.target.messageId}`
        : event.text,
    status: row.status,
    ...(row.doneAt !== undefined ? { handledAt: iso(row.doneAt) } : {}),
    ...(row.outcome ? { outcome: row.outcome } : {}),
    redeliveries: row.redeliveries,
    ...(row.redeliveredAt !== undefined ? { lastRedeliveryAt: iso(row.redeliveredAt) } : {}),
    ...(row.sessionKey ? { sessionKey: row.sessionKey } : {}),
    replies: replies.map(({ createdAt, sentAt, ...reply }) => ({
      ...reply,
      createdAt: iso(createdAt),
      ...(sentAt !== undefined ? { sentAt: iso(sentAt) } : {}),
    })),
  };
}
