import { randomUUID } from "node:crypto";
import { BoundedMap } from "@chorus/channel-kit";
import {
  type ChannelInstance,
  ChorusError,
  type ConversationAddress,
  type GeoLocation,
  type MessageRef,
  type MessageToolInput,
  type SendResult,
  toChorusError,
} from "@chorus/core";
import {
  type GatewayMedia,
  type OutboxMedia,
  outboundMedia,
  outboxMediaOf,
  type PlannedSend,
  planSend,
  recordOutboxMedia,
} from "../media/index.js";
import { recordFate, type StateStore } from "../state/index.js";
import type { ChannelEntry } from "./registry.js";

/** One `send` of the executor, as the media path needs it. */
export interface MediaCall {
  entry: ChannelEntry;
  conversation: ConversationAddress;
  /** The channel's instance now (an account may restart between two messages of one send). */
  instance(): ChannelInstance;
  /** The full ref of a message id (`replyTo`). */
  ref(messageId: string): Promise<MessageRef>;
}

/** What a send did: the tool's result, and the refs of the messages it sent (for the message index). */
export interface MediaSent {
  result: SendResult;
  refs: MessageRef[];
}

/** A row of the outbox this send made. */
interface Recorded {
  id: number;
  text: string;
  idempotencyKey: string;
  media?: OutboxMedia;
}

/** Rows of its own sends a process remembers (a delivery racing a send it made finds the send's outcome). */
const REMEMBERED_ROWS = 10_000;

/**
 * `send` with media or a location (DESIGN §2.6), on every path (agent, HTTP, MCP): each item is
 * resolved into the store and the call planned before anything is recorded (rule 6); the planned
 * messages become outbox rows — what each sends besides its text in `outbox_media` — committed
 * before the first is sent; then each is sent in order with media streamed from the store and
 * marked sent. A crash leaves the rest pending: the deliver step sends them after a restart, the
 * same bytes, through `resume`. A delivery of a row this process is sending, or has sent or failed
 * since its sweep read the row as pending, gets that send's outcome instead of making a second one.
 */
export class MediaSends {
  /** The rows of this process's own sends: each settles once its message was sent (its id) or failed. */
  readonly #mine = new BoundedMap<number, Promise<string>>(REMEMBERED_ROWS);

  constructor(
    private readonly state: StateStore,
    private readonly media: GatewayMedia,
    /** Counts the bytes of media a channel took (`chorus_media_bytes_total`, out). */
    private readonly counted?: (channel: string, bytes: number) => void,
  ) {}

  async send(call: MediaCall, input: MessageToolInput): Promise<MediaSent> {
    const { entry, conversation } = call;
    const { store, settings, links } = this.media;
    const plan = await planSend(input, {
      store,
      settings,
      links,
      capabilities: entry.capabilities,
      channel: entry.plugin.label,
    });
    const replyTo = input.replyTo ? await call.ref(input.replyTo) : undefined;
    const flights = new Map<number, { resolve(id: string): void; reject(error: unknown): void }>();
    const rows = await this.state.db
      .tx(async (sql) => {
        const scope = { channel: entry.plugin.id, accountId: entry.accountId, conversation };
        const recorded: Recorded[] = [];
        for (const [index, message] of plan.messages.entries()) {
          const idempotencyKey = randomUUID();
          const id = await this.state.outbox.add(
            sql,
            {
              sessionKey: `media:${entry.plugin.id}:${entry.accountId}:${conversation.id}`,
              channel: entry.plugin.id,
              account: entry.accountId,
              scope,
              text: message.text,
              ...(index === 0 && input.replyTo !== undefined ? { replyTo: input.replyTo } : {}),
              idempotencyKey,
            },
            Date.now(),
          );
          if (message.media) await recordOutboxMedia(sql, id, message.media);
          // Known as in flight before the rows are visible: no delivery can find one first.
          this.#fly(id, flights);
          recorded.push({ id, text: message.text, idempotencyKey, ...(message.media ? { media: message.media } : {}) });
        }
        return recorded;
      })
      .catch((error: unknown) => {
        for (const [id, flight] of flights) {
          this.#mine.delete(id);
          flight.reject(error);
        }
        throw error;
      });

    const refs: MessageRef[] = [];
    for (const [index, row] of rows.entries()) {
      const flight = flights.get(row.id);
      try {
        const ref = await this.#deliver(
          call,
          row.text,
          row.media,
          index === 0 ? replyTo : undefined,
          row.idempotencyKey,
        );
        refs.push(ref);
        await recordFate(() => this.state.outbox.markSent({ id: row.id }, ref.messageId, Date.now()));
        flight?.resolve(ref.messageId);
      } catch (error) {
        // This message and the ones after it are not sent: failed, so no sweep sends them after the caller heard so.
        const failure = toChorusError(error, `${entry.plugin.label} could not send`);
        for (const left of rows.slice(index)) {
          await recordFate(() =>
            this.state.outbox.markFailed(left.id, Date.now(), `${failure.code}: ${failure.message}`),
          );
          flights.get(left.id)?.reject(failure);
        }
        throw refs.length === 0 ? error : partly(failure, refs);
      }
    }
    const [first] = refs;
    if (!first) throw new ChorusError("E_INVALID_INPUT", "nothing to send");
    return {
      result: {
        ok: true,
        action: "send",
        messageId: first.messageId,
        ...(refs.length > 1 ? { messageIds: refs.map((ref) => ref.messageId) } : {}),
        sentAs: sentAsReported(plan, refs),
      },
      refs,
    };
  }

  /**
   * The deliver step's send of an outbox row: the outcome of this process's own send of it (in
   * flight, or settled since the row was read); else, for a row without text (media or a location:
   * a reply always has text), what it records, sent from the store; undefined for a row of text,
   * which the executor sends as ever.
   */
  async resume(
    call: MediaCall,
    row: { outboxId: number; text: string; idempotencyKey?: string | undefined; replyTo?: string | undefined },
  ): Promise<MediaSent | undefined> {
    const mine = this.#mine.peek(row.outboxId);
    if (mine) return { result: { ok: true, action: "send", messageId: await mine }, refs: [] };
    if (row.text !== "") return undefined;
    const media = await outboxMediaOf(this.state.db, row.outboxId);
    if (!media) return undefined;
    const replyTo = row.replyTo ? await call.ref(row.replyTo) : undefined;
    const ref = await this.#deliver(call, "", media, replyTo, row.idempotencyKey);
    return { result: { ok: true, action: "send", messageId: ref.messageId }, refs: [ref] };
  }

  /** One planned message to the platform, its media streamed from the store. */
  #deliver(
    call: MediaCall,
    text: string,
    media: OutboxMedia | undefined,
    replyTo: MessageRef | undefined,
    idempotencyKey: string | undefined,
  ): Promise<MessageRef> {
    const location: GeoLocation | undefined = media?.location;
    const sent = call.instance().send(call.conversation, {
      text,
      ...(media && media.media.length > 0 ? { media: outboundMedia(this.media.store, media.media) } : {}),
      ...(location ? { location } : {}),
      ...(replyTo ? { replyTo } : {}),
      ...(idempotencyKey ? { idempotencyKey } : {}),
    });
    const bytes = media?.media.reduce((sum, medium) => sum + medium.size, 0) ?? 0;
    if (bytes === 0 || !this.counted) return sent;
    return sent.then((ref) => {
      this.counted?.(call.entry.plugin.id, bytes);
      return ref;
    });
  }

  /** Notes an outbox row as this process's own send, settled once it is marked sent or failed. */
  #fly(id: number, flights: Map<number, { resolve(id: string): void; reject(error: unknown): void }>): void {
    let settle: { resolve(id: string): void; reject(error: unknown): void } | undefined;
    const promise = new Promise<string>((resolve, reject) => {
      settle = { resolve, reject };
    });
    // Nobody may wait for it: its failure is the caller's, not an unhandled rejection.
    promise.catch(() => undefined);
    flights.set(id, settle as { resolve(id: string): void; reject(error: unknown): void });
    this.#mine.set(id, promise);
  }
}

/** The error of a send that failed after some of its messages went out: it says which did. */
function partly(failure: ChorusError, sent: readonly MessageRef[]): ChorusError {
  return new ChorusError(failure.code, `${failure.message} (${sent.length} message(s) of this send went out first)`, {
    retryable: false,
    ...(failure.hint ? { hint: failure.hint } : {}),
    details: { ...(failure.details ?? {}), sentMessageIds: sent.map((ref) => ref.messageId) },
  });
}

/**
 * What each item went out as: the plan's, or what the plugin reports on the ref of the message
 * that carried it (`data.sentAs`, one kind per medium: a WhatsApp voice note sent as audio where no
 * ffmpeg could make it Ogg/Opus). Planned media keep the items' order across messages, so the
 * n-th medium sent is the n-th item that was not a link line.
 */
function sentAsReported(plan: PlannedSend, refs: readonly MessageRef[]): string[] {
  const sentAs = [...plan.sentAs];
  const uploaded = sentAs.flatMap((kind, index) =>
    kind === "link" || kind === "text" || kind === "location" ? [] : [index],
  );
  let next = 0;
  refs.forEach((ref, message) => {
    const reported = (ref.data as { sentAs?: unknown } | undefined)?.sentAs;
    for (const [position] of (plan.messages[message]?.media?.media ?? []).entries()) {
      const index = uploaded[next++];
      const kind = Array.isArray(reported) ? reported[position] : undefined;
      if (index !== undefined && typeof kind === "string") sentAs[index] = kind;
    }
  });
  return sentAs;
}
