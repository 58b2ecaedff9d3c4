import {
  type MessageRef,
  type ReactionIntent,
  type ReactionSummary,
  type ReactResult,
  UnsupportedEmojiError,
} from "@chorus/core";
import { AcmeApiError, type AcmeClient } from "./client.js";
import type { AcmeReactionSummary } from "./wire.js";

/**
 * Executes the reaction intents core decided (DESIGN §2.2). Core already applied the rules
 * (empty emoji, remove, clearAll): this class only says how Acme does each of the three ops.
 */
export class AcmeReactions {
  constructor(
    private readonly client: AcmeClient,
    private readonly label: string,
  ) {}

  /** Adds, removes or clears the bot's reactions on one message. */
  async react(ref: MessageRef, intent: ReactionIntent): Promise<ReactResult> {
    const base = `/v1/messages/${encodeURIComponent(ref.messageId)}/reactions`;
    if (intent.op === "clear") {
      // `@me` removes only the caller's reactions: other people's stay, as clearAll promises.
      const { removed } = await this.client.request<{ removed: string[] }>("DELETE", `${base}/@me`);
      return { ok: true, action: "react", op: "clear", removed };
    }
    const emoji = this.platformEmoji(intent);
    const path = `${base}/${encodeURIComponent(emoji)}`;
    if (intent.op === "add") {
      // Rule 10: adding what is already there is success, so Acme's 409 is not an error here.
      await tolerate("already_reacted", () => this.client.request("PUT", path));
      return { ok: true, action: "react", op: "add", emoji };
    }
    const removed = await tolerate("reaction_not_found", () => this.client.request("DELETE", path));
    return { ok: true, action: "react", op: "remove", emoji, removed: removed ? [emoji] : [] };
  }

  /** Everyone's reactions on a message, one entry per emoji. */
  async list(ref: MessageRef): Promise<ReactionSummary[]> {
    const path = `/v1/messages/${encodeURIComponent(ref.messageId)}/reactions`;
    const { reactions } = await this.client.request<{ reactions: AcmeReactionSummary[] }>("GET", path);
    return reactions.map(({ emoji, count, me }) => ({ emoji, count, me }));
  }

  /**
   * Rule 9: the emoji as Acme spells it. Acme takes any standard emoji as bare unicode, so
   * `thumbsup`, `:+1:` and `👍` all become `👍`, and `❤️` loses its variation selector.
   */
  platformEmoji(intent: ReactionIntent): string {
    if (intent.resolved) return intent.resolved.bare;
    // Custom emoji (`:partyparrot:`, `name:123`) do not exist on Acme: refuse before any request.
    const given = intent.emoji ?? "";
    throw new UnsupportedEmojiError(
      `"${given}" is not an emoji ${this.label} knows; it accepts standard unicode emoji only.`,
      given,
      [],
      'Use a standard emoji or its shortcode, such as "👍" or "thumbsup".',
    );
  }
}

/** Runs a call; Acme refusing with `wireCode` is the idempotent success (returns false). */
async function tolerate(wireCode: string, call: () => Promise<unknown>): Promise<boolean> {
  try {
    await call();
    return true;
  } catch (error) {
    if (error instanceof AcmeApiError && error.wireCode === wireCode) return false;
    throw error;
  }
}
