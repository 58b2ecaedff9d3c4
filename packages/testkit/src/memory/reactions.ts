import { type HttpClient, PlatformHttpError } from "@chorus/channel-kit";
import {
  ChorusError,
  type MessageRef,
  type ReactionIntent,
  type ReactionSummary,
  type ReactionVocabulary,
  type ReactResult,
  unsupportedEmoji,
} from "@chorus/core";
import type { WireReactionSummary } from "./wire.js";

/** Executes core's reaction intents against the memory platform. */
export class MemoryReactions {
  constructor(
    private readonly client: HttpClient,
    private readonly botId: () => string,
    private readonly label: string,
    private readonly vocabulary: ReactionVocabulary | undefined,
  ) {}

  async react(ref: MessageRef, intent: ReactionIntent): Promise<ReactResult> {
    const path = `/v1/messages/${encodeURIComponent(ref.messageId)}/reactions`;
    if (intent.op === "clear") {
      const { removed } = await this.client.request<{ removed: string[] }>({ method: "DELETE", path });
      return { ok: true, action: "react", op: "clear", removed };
    }
    const emoji = this.platformEmoji(intent);
    const target = `${path}/${encodeURIComponent(emoji)}`;
    if (intent.op === "add") {
      await this.#tolerating("already_reacted", () => this.client.request({ method: "PUT", path: target }));
      return { ok: true, action: "react", op: "add", emoji };
    }
    const removed = await this.#tolerating("no_reaction", () =>
      this.client.request({ method: "DELETE", path: target }),
    );
    return { ok: true, action: "react", op: "remove", emoji, removed: removed ? [emoji] : [] };
  }

  async list(ref: MessageRef): Promise<ReactionSummary[]> {
    const path = `/v1/messages/${encodeURIComponent(ref.messageId)}/reactions`;
    const summary = await this.client.request<WireReactionSummary[]>({ method: "GET", path });
    const me = this.botId();
    return summary.map((s) => ({ emoji: s.emoji, count: s.users.length, me: s.users.includes(me) }));
  }

  /** The emoji as the platform spells it: a vocabulary name, or unicode without selectors. */
  platformEmoji(intent: ReactionIntent): string {
    const given = intent.emoji ?? "";
    if (this.vocabulary) {
      const name = intent.kind ?? this.vocabulary.lookup(given);
      if (name === undefined) throw unsupportedEmoji(given, this.vocabulary, this.label);
      return name;
    }
    return intent.resolved?.bare ?? given;
  }

  /** Runs a call; a refusal with `wireCode` is the idempotent success (returns false). */
  async #tolerating(wireCode: string, call: () => Promise<unknown>): Promise<boolean> {
    try {
      await call();
      return true;
    } catch (error) {
      if (error instanceof PlatformHttpError && error.platformCode === wireCode) return false;
      if (error instanceof ChorusError) throw error;
      throw new ChorusError("E_PLATFORM", String(error), { cause: error });
    }
  }
}
