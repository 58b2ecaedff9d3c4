import type { TracedInbound, TracedReply } from "../state/index.js";

/** One inbound event's way through the gateway, as `chorus trace` reports it. */
export interface MessageTrace {
  inboxId: number;
  channel: string;
  account: string;
  eventId: string;
  messageId?: string;
  kind: "message" | "reaction";
  /** ISO time the gateway committed it. */
  receivedAt: string;
  from: { id: string; name?: string };
  conversation: { id: string; kind: string; title?: string; threadId?: string };
  /** The message's text, or what the reaction was. */
  text: string;
  /** `received`: not handled yet; `done` or `buffered` (kept as context): handled. */
  status: TracedInbound["status"];
  handledAt?: string;
  /** What the handle step made of it: the decision, its reason, a turn's times. */
  outcome?: TracedInbound["outcome"];
  /** Redeliveries the dedupe dropped, and the last one's time. */
  redeliveries: number;
  lastRedeliveryAt?: string;
  sessionKey?: string;
  /** The replies recorded for it in the outbox, and their delivery. */
  replies: (Omit<TracedReply, "createdAt" | "sentAt"> & { createdAt: string; sentAt?: string })[];
}

/** `chorus trace <channel> <message-id>`'s whole answer. */
export interface TraceResult {
  found: boolean;
  channel: string;
  id: string;
  account?: string;
  /** Where it looked: the state database, and for how long handled events are kept. */
  lookedIn: string;
  messages: MessageTrace[];
}

/** `chorus trace`'s human answer: per message found, its way in lines; or where it looked. */
export function formatTrace(result: TraceResult): string {
  if (!result.found)
    return `No inbound message or event "${result.id}" on channel ${result.channel}: looked in ${result.lookedIn}.\n`;
  return `${result.messages.map(formatMessage).join("\n")}\n`;
}

function formatMessage(trace: MessageTrace): string {
  const lines: string[] = [];
  const line = (label: string, text: string) => lines.push(`  ${label.padEnd(11)} ${text}`);
  const what = trace.kind === "reaction" ? "reaction" : `message ${trace.messageId ?? "?"}`;
  lines.push(`${trace.channel} (${trace.account}): ${what} — inbox row ${trace.inboxId}, event ${trace.eventId}`);
  const { conversation } = trace;
  const where =
    conversation.kind === "group"
      ? `the group ${conversation.title ? `"${conversation.title}" ` : ""}(${conversation.id})`
      : `a direct chat (${conversation.id})`;
  const thread = conversation.threadId ? `, thread ${conversation.threadId}` : "";
  line("received", `${local(trace.receivedAt)} from ${who(trace.from)} in ${where}${thread}`);
  line(trace.kind === "reaction" ? "what" : "text", oneLine(trace.text));
  if (trace.redeliveries > 0) {
    const times = trace.redeliveries === 1 ? "once" : `${trace.redeliveries} times`;
    const last = trace.lastRedeliveryAt ? ` (last ${local(trace.lastRedeliveryAt)})` : "";
    line("redelivered", `${times}, each dropped by the dedupe${last}`);
  }
  line("decision", decision(trace));
  if (trace.handledAt) line("handled", local(trace.handledAt));
  for (const reply of trace.replies) line(`reply ${reply.id}`, `${delivery(reply)}: "${oneLine(reply.text, 60)}"`);
  if (trace.sessionKey) line("session", trace.sessionKey);
  return lines.join("\n");
}

/** What the handle step made of it, in words. */
function decision(trace: MessageTrace): string {
  const outcome = trace.outcome;
  if (!outcome) {
    return trace.status === "received"
      ? "not handled yet (received, waiting for its session's turn)"
      : "handled, no outcome recorded (handled before outcomes were kept, a reaction left by a crash, or handling that failed: see the gateway's log)";
  }
  const reason = outcome.reason ? `: ${outcome.reason}` : "";
  switch (outcome.outcome) {
    case "replied":
    case "no-reply":
    case "error": {
      const said = { replied: "replied", "no-reply": "no reply (the agent stayed silent)", error: "the model failed" }[
        outcome.outcome
      ];
      const times = [
        outcome.modelMs !== undefined ? `model ${seconds(outcome.modelMs)}` : "",
        outcome.turnMs !== undefined ? `turn ${seconds(outcome.turnMs)}` : "",
      ].filter(Boolean);
      const facts = [outcome.agent ? `agent ${outcome.agent}` : "", outcome.provider ?? "", ...times].filter(Boolean);
      return `a turn ran: ${said}${facts.length > 0 ? ` (${facts.join(", ")})` : ""}${reason}`;
    }
    case "buffered":
      return `kept as context for the next turn${reason}`;
    case "blocked":
      return `blocked${reason}`;
    case "command":
      return `a chat command, answered by the gateway${reason}`;
    case "echo":
      return `skipped${reason}`;
    case "reaction":
      return "a reaction: handled (a note for the conversation's next turn where reactionNotifications accepts it)";
  }
}

function delivery(reply: MessageTrace["replies"][number]): string {
  const attempts = `${reply.attempts} attempt${reply.attempts === 1 ? "" : "s"}`;
  switch (reply.status) {
    case "sent":
      return `sent ${reply.sentAt ? local(reply.sentAt) : ""} as message ${reply.platformId ?? "(no id)"} (${attempts})`;
    case "failed":
      return `failed ${reply.sentAt ? local(reply.sentAt) : ""} after ${attempts}${reply.error ? `: ${reply.error}` : ""}`;
    case "pending":
      return `pending, not sent yet${reply.attempts > 0 ? ` (${attempts}${reply.error ? `; last: ${reply.error}` : ""})` : ""}`;
  }
}

function who(from: MessageTrace["from"]): string {
  return from.name ? `${from.name} (${from.id})` : from.id;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** An ISO time as local time with its offset (`2030-01-01 10:42:03 +01:00`): what an operator reads off a clock. */
export function local(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(Math.abs(n)).padStart(2, "0");
  const offset = -date.getTimezoneOffset();
  const zone = `${offset >= 0 ? "+" : "-"}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())} ${zone}`;
}

function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
