import { randomUUID } from "node:crypto";
import { BoundedMap } from "@chorus/channel-kit";
import { reactionEmojiKey } from "./emoji.js";
import { dispatchProblem, isReadDispatch, type ReactionOrigin, type ReadDispatch } from "./inbound.js";

/** A gateway packet as discord.js hands it to its `raw` listeners. */
interface GatewayPacket {
  op?: unknown;
  t?: unknown;
  s?: unknown;
  d?: unknown;
}

/** What reading one dispatch found: its type, sequence, and what is wrong with it, if anything. */
export interface SeenDispatch {
  readonly type: ReadDispatch;
  readonly seq: number | undefined;
  readonly problem: string | undefined;
}

/** Reaction dispatches waiting for discord.js to emit their events; they are taken within the same tick. */
const PENDING_LIMIT = 500;

/**
 * Where each reaction event discord.js emits came from. A reaction has no id of its own on
 * Discord, but its dispatch has one: the session and sequence number (`s`), which a RESUME replays
 * unchanged. So a replayed reaction carries the same `eventId` (the gateway drops the repeat),
 * and two real reactions never share one, also across restarts of the channel.
 */
export class DispatchOrigins {
  #session = `unknown-${randomUUID()}`;
  readonly #pending = new BoundedMap<string, ReactionOrigin>(PENDING_LIMIT);

  /** Reads a raw gateway packet: remembers the session and reaction origins; checks dispatches the channel reads. */
  see(packet: unknown): SeenDispatch | undefined {
    const { op, t, s, d } = (packet ?? {}) as GatewayPacket;
    if (op !== 0) return undefined;
    const seq = typeof s === "number" ? s : undefined;
    if (t === "READY") {
      const session = (d as { session_id?: unknown } | null)?.session_id;
      if (typeof session === "string") this.#session = session;
    }
    if (!isReadDispatch(t)) return undefined;
    const problem = dispatchProblem(t, d);
    if (problem === undefined && t !== "MESSAGE_CREATE") this.#remember(t, d as RawReaction, seq);
    return { type: t, seq, problem };
  }

  /** The origin of a reaction event (`key` from `reactionKey`); a fresh unique one when none was seen. */
  take(key: string): ReactionOrigin {
    const origin = this.#pending.get(key);
    this.#pending.delete(key);
    return origin ?? { eventId: `reaction:${randomUUID()}` };
  }

  #remember(type: Exclude<ReadDispatch, "MESSAGE_CREATE">, d: RawReaction, seq: number | undefined): void {
    const emoji = d.emoji ? reactionEmojiKey(d.emoji) : undefined;
    const key = reactionKey(type, d.message_id, d.user_id, emoji);
    this.#pending.set(key, {
      eventId: `reaction:${this.#session}:${seq ?? randomUUID()}`,
      ...(d.message_author_id ? { messageAuthorId: d.message_author_id } : {}),
    });
  }
}

interface RawReaction {
  message_id: string;
  user_id?: string;
  emoji?: { id: string | null; name: string | null };
  message_author_id?: string;
}

/** How a reaction event and its dispatch find each other. */
export function reactionKey(type: string, messageId: string, userId?: string, emoji?: string): string {
  return [type, messageId, userId ?? "", emoji ?? ""].join("\n");
}
