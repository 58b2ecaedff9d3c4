import { anySignal } from "@chorus/channel-kit";
import type { ChannelState, ChannelWatch } from "../channels/index.js";
import type { StateStore } from "../state/index.js";
import type { EventFilter } from "./filter.js";
import type { OperatorEvent, OperatorEvents } from "./operator.js";

/** One SSE event: `id` only on inbox events (what `Last-Event-ID` resumes from). */
export interface SseFrame {
  id?: string;
  data: string;
}

export interface EventHubOptions {
  state: Pick<StateStore, "inbox">;
  filter: EventFilter;
  watch: ChannelWatch;
  /** How long handled inbox rows are kept: how far back a reconnect can resume. */
  retentionMs: number;
  /** How often a stream looks at the inbox when nothing woke it (rows another gateway committed). */
  pollMs?: number;
  /** Drops and refusals, for streams that ask for them (`?operator=1`). */
  operator?: OperatorEvents;
}

/** Operator events one stream holds while it writes (a burst beyond it is counted, not kept). */
const OPERATOR_BUFFER = 1_000;

/** Inbox rows read per query. */
const PAGE = 200;

/**
 * `GET /v1/events`: each stream reads the durable inbox from its cursor, in id order — the
 * rows after `Last-Event-ID` first (a resume), then each new row as it is committed — and shows
 * the ones the `EventFilter` lets through, with the row id as the SSE id. Channel status
 * changes go out as they happen, without an id (they are not replayed; the `ready` event and
 * `list_channels` give the current state); so do operator events, to a stream that asked for them.
 */
export class EventHub {
  #wake = signal();
  readonly #closing = new AbortController();

  constructor(private readonly options: EventHubOptions) {}

  /** Ends every stream (the gateway is stopping). */
  close(): void {
    this.#closing.abort();
  }

  /** New rows were committed: wake every stream. */
  notify(): void {
    const wake = this.#wake;
    this.#wake = signal();
    wake.resolve();
  }

  /**
   * Streams until `client` aborts or the hub closes; `after` is the client's `Last-Event-ID` (none:
   * from now); `operator` adds the operator events (drops and refusals) as they happen.
   */
  async stream(
    after: number | undefined,
    write: (frame: SseFrame) => Promise<void>,
    client: AbortSignal,
    options: { operator?: boolean } = {},
  ): Promise<void> {
    // Either ends the stream, and a download of an event's attachments under way with it.
    const signal = anySignal([client, this.#closing.signal]);
    const { state, filter, watch } = this.options;
    const bounds = await state.inbox.bounds();
    // An id past the newest row is not one of this inbox's (a new database): from now, and say so.
    const unknown = after !== undefined && after > bounds.newest;
    let cursor = after === undefined || unknown ? bounds.newest : after;
    let statuses: ChannelState[] = [];
    const unlisten = watch.listen((changed) => {
      statuses.push(...changed);
      this.notify();
    });
    let reports: OperatorEvent[] = [];
    let missed = 0;
    const unlistenOperator = options.operator
      ? this.options.operator?.listen((event) => {
          if (reports.length < OPERATOR_BUFFER) reports.push(event);
          else missed++;
          this.notify();
        })
      : undefined;
    try {
      await write({
        data: JSON.stringify({
          type: "ready",
          retentionMs: this.options.retentionMs,
          oldestId: String(bounds.oldest),
          newestId: String(bounds.newest),
          ...(after !== undefined && !unknown ? { resumedAfter: String(after) } : {}),
          // Rows between the client's id and the oldest kept one were pruned (older than retentionMs).
          ...(after !== undefined && !unknown && bounds.oldest > after + 1 ? { missedBeyondRetention: true } : {}),
          ...(unknown ? { unknownLastEventId: String(after) } : {}),
          channels: watch.states(),
        }),
      });
      while (!signal.aborted) {
        const wake = this.#wake.promise;
        const rows = await state.inbox.after(cursor, PAGE);
        for (const row of rows) {
          const event = await filter.view(row, signal);
          cursor = Number(row.id);
          if (event) await write({ id: event.id, data: JSON.stringify(event) });
        }
        const changed = statuses;
        statuses = [];
        for (const status of changed)
          await write({ data: JSON.stringify({ type: "status", at: Date.now(), ...status }) });
        const reported = reports;
        reports = [];
        for (const [i, report] of reported.entries()) {
          // The first after a burst this stream could not hold says how many it missed.
          const gap = i === 0 && missed > 0 ? { missedBefore: missed } : {};
          if (i === 0) missed = 0;
          await write({ data: JSON.stringify({ ...report, ...gap }) });
        }
        if (rows.length === PAGE) continue;
        await waitFor(wake, this.options.pollMs ?? 1_000, signal);
      }
    } catch (error) {
      // Stopped mid-way (a download of an event's attachments cut short): the stream just ends.
      if (!signal.aborted) throw error;
    } finally {
      unlisten();
      unlistenOperator?.();
    }
  }
}

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; resolve(): void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Resolves on `wake`, after `ms`, or when `signal` aborts, whichever comes first. */
function waitFor(wake: Promise<void>, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    void wake.then(done);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
