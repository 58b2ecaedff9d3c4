import { CounterSeries, HistogramSeries } from "./series.js";

/** What the receive step made of an inbound event (or of a delivery a channel could not read). */
export type ReceiveOutcome =
  /** Committed to the durable inbox. */
  | "committed"
  /** A redelivery of an event committed before: dropped by the dedupe. */
  | "duplicate"
  /** The channel could not read the delivery (its receiver's `unreadable`). */
  | "unreadable"
  /** The commit failed: the channel does not acknowledge it (the platform delivers it again, or it is kept). */
  | "refused"
  /** A webhook body over `gateway.maxBodyBytes`: answered 413, never read. */
  | "too-large";

/** A turn's end: the handle step's outcomes of a turn, or aborted (a shutdown; handled again after it). */
export type TurnEnd = "replied" | "no-reply" | "error" | "aborted";

/** Seconds: a fast local model's answer up to an outside agent's five minutes. */
const SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** How long refused commits are remembered per account (`/readyz`, `chorus doctor`). */
export const REFUSALS_WINDOW_MS = 15 * 60_000;
/** Refusals remembered per account at most (the newest). */
const REFUSALS_KEPT = 1_000;

/** Refused commits of one account in the window, and the last one's error. */
export interface Refusals {
  count: number;
  lastAt?: number;
  lastError?: string;
}

/**
 * What the gateway counts, in plain numbers (no metrics library is loaded before the first scrape
 * of `GET /metrics`). Labels are bounded: channel, account, agent and provider come from the config,
 * outcomes and error codes from fixed sets; never a conversation, a user or a message.
 */
export class GatewayMetrics {
  readonly inbound = new CounterSeries(
    "chorus_inbound_events_total",
    "Inbound events at the receive step, by outcome: committed, duplicate (a redelivery dropped), unreadable, refused (the commit failed), too-large.",
    ["channel", "account", "outcome"],
  );
  readonly handled = new CounterSeries(
    "chorus_inbound_handled_total",
    "Inbound events handled, by outcome: replied, no-reply, error (turns), buffered, blocked, command, echo, reaction.",
    ["channel", "account", "outcome"],
  );
  readonly turnsStarted = new CounterSeries("chorus_turns_started_total", "Agent turns started.", ["agent", "channel"]);
  readonly turnsFinished = new CounterSeries("chorus_turns_finished_total", "Agent turns finished, by outcome.", [
    "agent",
    "channel",
    "outcome",
  ]);
  readonly turnSeconds = new HistogramSeries(
    "chorus_turn_duration_seconds",
    "An agent turn's duration, from its start to its reply's delivery.",
    ["agent", "outcome"],
    SECONDS,
  );
  readonly modelSeconds = new HistogramSeries(
    "chorus_model_latency_seconds",
    "The model's part of a turn (its steps and tool calls; an outside agent's wait for provider external).",
    ["agent", "provider"],
    SECONDS,
  );
  readonly modelErrors = new CounterSeries("chorus_model_errors_total", "Turns whose model failed, by error code.", [
    "agent",
    "provider",
    "code",
  ]);
  readonly sends = new CounterSeries("chorus_replies_sent_total", "Replies delivered from the outbox.", ["channel"]);
  readonly sendFailures = new CounterSeries(
    "chorus_reply_send_failures_total",
    "Failed attempts to deliver a reply, by error code (E_DISABLED: it waits in the outbox for its channel).",
    ["channel", "code"],
  );
  readonly mediaBytes = new CounterSeries("chorus_media_bytes_total", "Bytes of media received (in) and sent (out).", [
    "channel",
    "direction",
  ]);
  readonly #refusals = new Map<string, { at: number[]; lastError?: string }>();

  /** An inbound event's outcome at the receive step. */
  received(channel: string, account: string, outcome: ReceiveOutcome): void {
    this.inbound.inc([channel, account, outcome]);
  }

  /** A commit refused: counted, and remembered for the window with its error. */
  refused(channel: string, account: string, error: string, at = Date.now()): void {
    this.received(channel, account, "refused");
    const key = `${channel}\u0000${account}`;
    const known = this.#refusals.get(key) ?? { at: [] };
    known.at.push(at);
    if (known.at.length > REFUSALS_KEPT) known.at.splice(0, known.at.length - REFUSALS_KEPT);
    known.lastError = error;
    this.#refusals.set(key, known);
  }

  /** An account's refused commits since `since` (epoch ms). */
  refusals(channel: string, account: string, since: number): Refusals {
    const known = this.#refusals.get(`${channel}\u0000${account}`);
    const recent = known?.at.filter((at) => at >= since) ?? [];
    const lastAt = recent.at(-1);
    return {
      count: recent.length,
      ...(lastAt !== undefined ? { lastAt } : {}),
      ...(lastAt !== undefined && known?.lastError ? { lastError: known.lastError } : {}),
    };
  }

  /** An inbound event's outcome at the handle step. */
  handledAs(channel: string, account: string, outcome: string): void {
    this.handled.inc([channel, account, outcome]);
  }

  turnStarted(agent: string, channel: string): void {
    this.turnsStarted.inc([agent, channel]);
  }

  turnFinished(agent: string, channel: string, outcome: TurnEnd, seconds: number): void {
    this.turnsFinished.inc([agent, channel, outcome]);
    this.turnSeconds.observe([agent, outcome], seconds);
  }

  /** The model's part of a turn; `code` when it failed. */
  model(agent: string, provider: string, seconds: number, code?: string): void {
    this.modelSeconds.observe([agent, provider], seconds);
    if (code !== undefined) this.modelErrors.inc([agent, provider, code]);
  }

  /** A delivery attempt of a reply: sent, or failed with `code`. */
  delivery(channel: string, code?: string): void {
    if (code === undefined) this.sends.inc([channel]);
    else this.sendFailures.inc([channel, code]);
  }

  /** Bytes of media in (attachments stored) or out (media a channel took). */
  media(channel: string, direction: "in" | "out", bytes: number): void {
    this.mediaBytes.inc([channel, direction], bytes);
  }
}

/** What a scrape reads besides the counters: the state and the channel accounts, as they are now. */
export interface ScrapeSources {
  /** What waits in the durable queues (database-wide: every gateway on one database reports the same). */
  queues(): Promise<{ inbox: { backlog: number; oldestAt?: number }; outbox: { pending: number; oldestAt?: number } }>;
  /** Each configured channel account and its state on this gateway. */
  accounts(): readonly { channel: string; account: string; state: string }[];
  /** Whether this gateway is ready (`GET /readyz`). */
  ready(): Promise<boolean>;
}
