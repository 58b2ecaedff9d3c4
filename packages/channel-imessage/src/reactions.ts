import type { MessageRef, ReactionIntent, ReactResult } from "@chorus/core";
import { UnsupportedEmojiError } from "@chorus/core";
import type { BlueBubblesClient } from "./client.js";
import { chatGuidOf, partOf } from "./outbound.js";
import type { TapbackStore } from "./stores.js";
import { imessageVocabulary, isTapbackKind, type TapbackKind } from "./vocabulary.js";

/**
 * Executes core's reaction intents (DESIGN §2.2, iMessage row: tapbackOnly + singleSlot +
 * clearAll). One tapback per person per message: `add` sends the kind (the server replaces the
 * bot's previous one), `remove` sends `-kind` only when the bot holds that kind, `clear` sends
 * `-<held kind>`. What the bot holds is tracked in `stateDir` (BlueBubbles has no list call).
 */
export class IMessageReactions {
  constructor(
    private readonly client: BlueBubblesClient,
    private readonly store: TapbackStore,
  ) {}

  /** Executes one intent; adding what is held or removing what is absent is success (rule 10). */
  async react(ref: MessageRef, intent: ReactionIntent): Promise<ReactResult> {
    const chatGuid = chatGuidOf(ref.conversationId);
    const held = this.store.get(chatGuid, ref.messageId);
    if (intent.op === "add") {
      const kind = kindOf(intent);
      if (held !== kind) {
        await this.#send(ref, chatGuid, kind);
        await this.store.set(chatGuid, ref.messageId, kind);
      }
      return { ok: true, action: "react", op: "add", emoji: kind };
    }
    // `remove` names one kind and touches only that one; `clear` empties the bot's slot.
    const target = intent.op === "remove" ? kindOf(intent) : held;
    if (target === undefined || held !== target) return { ok: true, action: "react", op: intent.op, removed: [] };
    await this.#send(ref, chatGuid, `-${target}`);
    await this.store.set(chatGuid, ref.messageId, undefined);
    return { ok: true, action: "react", op: intent.op, removed: [target] };
  }

  async #send(ref: MessageRef, chatGuid: string, reaction: string): Promise<void> {
    await this.client.react({ chatGuid, selectedMessageGuid: ref.messageId, reaction, partIndex: partOf(ref) });
  }
}

/** The tapback kind of an intent: core's `kind`, else looked up in the vocabulary (rule 9). */
export function kindOf(intent: ReactionIntent): TapbackKind {
  const kind = intent.kind ?? imessageVocabulary.lookup(intent.emoji ?? "");
  if (kind !== undefined && isTapbackKind(kind)) return kind;
  const given = intent.emoji ?? "";
  const kinds = imessageVocabulary.names.join(", ");
  throw new UnsupportedEmojiError(
    `"${given}" is not a tapback on iMessage; emoji must be one of: ${kinds}.`,
    given,
    imessageVocabulary.closest(given, imessageVocabulary.names.length),
    `emoji must be one of: ${kinds}`,
  );
}
