import { randomBytes } from "node:crypto";
import type { ChannelStore } from "@chorus/core";
import type { ReactionOccurrence } from "./inbound.js";

/** How long after a reaction hook the same hook again counts as its redelivery. */
export const REDELIVERY_WINDOW_MS = 10 * 60 * 1000;

type LastReaction = {
  action: ReactionOccurrence["action"];
  eventId: string;
};

/**
 * Event ids for Talk's reaction hooks, stable across a redelivery. The hooks carry no id or time:
 * a second `Like` of the same emoji by the same person on the same message is byte for byte the
 * first one. Talk refuses to add a reaction someone already holds, so a `Like` that follows a
 * `Like` with no `Undo` between (within `REDELIVERY_WINDOW_MS`) is the same event delivered again
 * and gets the same id; a `Like` after an `Undo` is a new event. Kept in the store, so a restart
 * between a delivery and its redelivery changes nothing.
 */
export class ReactionEventIds {
  constructor(private readonly store: ChannelStore) {}

  /** The event id of this occurrence. */
  async idFor(occurrence: ReactionOccurrence): Promise<string> {
    const { action, conversationId, messageId, actorId, emoji } = occurrence;
    const key = ["reactionEvents", conversationId, messageId, actorId, emoji]
      .map((part, index) => (index === 0 ? part : encodeURIComponent(part)))
      .join("/");
    const fresh = (): LastReaction => ({
      action,
      eventId: `${action === "added" ? "like" : "undo"}:${conversationId}:${messageId}:${randomBytes(6).toString("hex")}`,
    });
    const last = await this.store.update<LastReaction>(
      key,
      (current) => (current?.action === action && typeof current.eventId === "string" ? current : fresh()),
      { ttlMs: REDELIVERY_WINDOW_MS },
    );
    return (last ?? fresh()).eventId;
  }
}
