import { type InboundEvent, type InboundMessageEvent, type InboundReactionEvent, toChorusError } from "@chorus/core";
import type { Logger } from "pino";
import { type AccountKey, accountKey, type ChannelEntry } from "../channels/index.js";
import type { OperatorEvents } from "../events/index.js";
import { fromLine } from "../groups/index.js";
import type { GatewayMetrics } from "../metrics/index.js";
import { type InboxInsert, isStateUnavailable, type Sql, type StateStore } from "../state/index.js";
import { InFlight } from "./in-flight.js";
import type { StateOutage } from "./state-outage.js";
import { TickBatch } from "./tick-batch.js";

/** The fencing check of one channel account's writes, when it runs under a lease. */
export type FenceOf = (key: AccountKey) => ((sql: Sql) => Promise<void>) | undefined;

interface Accepted {
  insert: InboxInsert;
  /** Told the new row's id (undefined: a redelivery) as soon as it is readable. */
  readable: ((id: number | undefined) => void) | undefined;
}

/**
 * Commits inbound events to the durable inbox before their channel acknowledges the platform.
 * `(channel, account, eventId)` is unique there: a redelivered event resolves undefined (the dedupe
 * record). Events that arrive in the same tick share one durable transaction, whatever their
 * account (group commit: one fsync for a whole `getUpdates` batch, a burst of webhooks, or the
 * polls and webhooks of many accounts at once); every account's fence runs in it, and when it
 * fails each account's events are committed again on their own.
 */
export class InboxWriter {
  readonly #batch: TickBatch<Accepted, number | undefined>;

  constructor(
    private readonly state: StateStore,
    private readonly fenceOf: FenceOf = () => undefined,
    /** Called after each commit that added rows (the event stream reads them). */
    private readonly onCommitted: () => void = () => {},
  ) {
    this.#batch = new TickBatch(
      (batch) => this.#commit(batch),
      ({ insert }) => accountKey(insert.channel, insert.account),
    );
  }

  /**
   * Commits one event; resolves with its new inbox row id (or undefined for a redelivery) once it
   * is on the disk, when the platform may be told it was received. `readable` gets the id as soon
   * as the row is readable: a turn may start then, without waiting for the disk.
   */
  accept(
    channel: string,
    account: string,
    event: InboundEvent,
    sessionKey: string | null,
    readable?: (id: number | undefined) => void,
  ): Promise<number | undefined> {
    const refs = event.type === "message" ? [event.ref] : [];
    const messageId = event.type === "message" ? event.ref.messageId : undefined;
    return this.#batch.add({
      insert: { channel, account, eventId: event.eventId, sessionKey, event, refs, messageId },
      readable,
    });
  }

  /** One durable transaction for a batch: the fence of each of its accounts first, then the rows. */
  async #commit(batch: readonly Accepted[]): Promise<(number | undefined)[]> {
    const accounts = new Map(batch.map(({ insert }) => [accountKey(insert.channel, insert.account), insert]));
    const fences = [...accounts.keys()].flatMap((key) => this.fenceOf(key) ?? []);
    const ids = await this.state.inbox.accept(
      batch.map((accepted) => accepted.insert),
      Date.now(),
      fences.length === 0
        ? undefined
        : async (sql) => {
            for (const fence of fences) await fence(sql);
          },
      (readable) => {
        for (const [i, accepted] of batch.entries()) accepted.readable?.(readable[i]);
      },
    );
    if (ids.some((id) => id !== undefined)) this.onCommitted();
    return ids;
  }
}

export interface ReceiveOptions {
  inbox: InboxWriter;
  /** The session a message belongs to. */
  sessionKeyOf(entry: ChannelEntry, event: InboundMessageEvent): string;
  /** Wakes a session whose next message is readable (the schedule step). */
  wake(sessionKey: string): void;
  /** Handles a committed reaction row at once (it feeds no session's turns). */
  reaction(entry: ChannelEntry, event: InboundReactionEvent, inboxId: number): Promise<void>;
  /** Counts each event's outcome (committed, duplicate, refused). */
  metrics?: GatewayMetrics | undefined;
  /** Where a dropped redelivery and a refused commit are reported to the operator. */
  operator?: OperatorEvents | undefined;
  /** Told when a commit fails because the state is unavailable, and when one succeeds again. */
  outage: StateOutage;
  logger: Logger;
}

/** The receive step: what a channel's `ctx.emit` calls; resolves once the event is committed, rejects when it is not. */
export type Receive = (entry: ChannelEntry, event: InboundEvent) => Promise<void>;

/**
 * The receive step: an event is committed to the durable inbox (deduplicated there) before its
 * channel may acknowledge it; once its row is readable, a message wakes its session (the schedule
 * step takes it from there, in order) and a reaction is handled. A reaction received before a
 * message of its conversation is handled first: it is a note for the turn the message starts.
 */
export function createReceive(options: ReceiveOptions): Receive {
  const { inbox, logger, metrics, operator, outage } = options;
  const reactionsInFlight = new InFlight();
  const facts = (entry: ChannelEntry, event: InboundEvent) => ({
    channel: entry.plugin.id,
    account: entry.accountId,
    eventId: event.eventId,
    conversationId: event.conversation.id,
    ...(event.type === "message" ? { messageId: event.ref.messageId, senderId: event.sender.id } : {}),
  });
  /** Commits; a redelivery is dropped (and said), a failed commit counted and said, then rejected. */
  const commit = async (
    entry: ChannelEntry,
    event: InboundEvent,
    sessionKey: string | null,
    readable: (id: number | undefined) => void,
  ): Promise<number | undefined> => {
    const channel = entry.plugin.id;
    let id: number | undefined;
    try {
      id = await inbox.accept(channel, entry.accountId, event, sessionKey, readable);
    } catch (error) {
      if (isStateUnavailable(error)) outage.failed(error);
      const reason = toChorusError(error).message;
      metrics?.refused(channel, entry.accountId, reason);
      operator?.publish({ outcome: "refused", ...facts(entry, event), reason: `the commit failed: ${reason}` });
      throw error;
    }
    outage.recovered();
    metrics?.received(channel, entry.accountId, id === undefined ? "duplicate" : "committed");
    if (id === undefined) {
      logger.debug({ channel, eventId: event.eventId }, "dropped a redelivered event");
      operator?.publish({
        outcome: "duplicate",
        ...facts(entry, event),
        reason: "a redelivery of an event committed before: dropped by the dedupe",
      });
    }
    return id;
  };

  return async (entry, event) => {
    const channel = entry.plugin.id;
    const conversation = `${accountKey(channel, entry.accountId)}\u0000${event.conversation.id}`;
    if (event.type === "reaction") {
      await commit(entry, event, null, (readable) => {
        if (readable !== undefined) reactionsInFlight.track(conversation, options.reaction(entry, event, readable));
      });
      return;
    }
    const sessionKey = options.sessionKeyOf(entry, event);
    const id = await commit(entry, event, sessionKey, (readable) => {
      if (readable !== undefined) reactionsInFlight.after(conversation, () => options.wake(sessionKey));
    });
    // `--verbose` only: the line and its `[from: …]` suffix are not built for every message otherwise.
    if (id === undefined || !logger.isLevelEnabled("debug")) return;
    const from =
      event.conversation.kind === "group"
        ? fromLine({ name: event.sender.name ?? event.sender.id, e164: event.sender.e164 })
        : undefined;
    logger.debug(
      { channel, from: event.conversation.id, sender: event.sender.id, sessionKey, ...(from ? { suffix: from } : {}) },
      "inbound message",
    );
  };
}
