/** What an operator event reports: an inbound event dropped or refused on its way in, or blocked by a rule. */
export type OperatorOutcome =
  /** A redelivery of an event committed before: dropped by the dedupe. */
  | "duplicate"
  /** A delivery its channel could not read (acknowledged and dropped). */
  | "unreadable"
  /** An event whose commit failed: not acknowledged (the platform delivers it again, or the channel keeps it). */
  | "refused"
  /** A message an access rule refused (the reason names the rule). */
  | "blocked"
  /** A webhook body over `gateway.maxBodyBytes`: answered 413, never read. */
  | "too-large";

/**
 * An event for the operator on `GET /v1/events?operator=1` (never on an agent's stream, nor in MCP):
 * what was dropped or refused, where, and why. Live only: the durable record is the inbox row's
 * outcome (`chorus trace`) and the metrics.
 */
export interface OperatorEvent {
  type: "operator";
  outcome: OperatorOutcome;
  /** Epoch ms. */
  at: number;
  channel: string;
  account?: string;
  eventId?: string;
  messageId?: string;
  conversationId?: string;
  senderId?: string;
  /** The inbox row, where the event has one (`blocked`, `duplicate`: the row it repeats is not known here). */
  inboxId?: string;
  reason: string;
}

/** What a publisher gives (the type and time are added). */
export type OperatorReport = Omit<OperatorEvent, "type" | "at">;

/** The longest `reason` an operator event carries (a channel's problem text may be long). */
const MAX_REASON = 500;

/** The operator events of this gateway, handed to the streams that asked for them as they happen. */
export class OperatorEvents {
  readonly #listeners = new Set<(event: OperatorEvent) => void>();

  publish(report: OperatorReport, at = Date.now()): void {
    if (this.#listeners.size === 0) return;
    const reason = report.reason.length > MAX_REASON ? `${report.reason.slice(0, MAX_REASON - 1)}…` : report.reason;
    const event: OperatorEvent = { type: "operator", ...report, reason, at };
    for (const listener of this.#listeners) listener(event);
  }

  /** Calls `listener` with each event from now on; returns the way to stop. */
  listen(listener: (event: OperatorEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
