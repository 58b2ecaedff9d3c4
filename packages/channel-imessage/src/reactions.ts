import type { BotReactionRecord, ReactionTarget } from "@chorus/channel-kit";
import type { ChannelInstance, MessageRef, ReactionIntent, ReactResult } from "@chorus/core";
import { UnsupportedEmojiError } from "@chorus/core";
import type { BlueBubblesClient } from "./client.js";
import { chatGuidOf, partOf } from "./outbound.js";
import { imessageVocabulary, isTapbackKind, type TapbackKind } from "./vocabulary.js";

/** What the instance calls to react. */
export type IMessageReactions = Pick<ChannelInstance, "react">;

/**
 * Executes core's reaction intents (DESIGN §2.2, iMessage row: tapbackOnly + singleSlot +
 * clearAll). One tapback per person per message: `add` sends the kind (the server replaces the
 * bot's previous one), `remove` sends `-kind` only when the bot holds that kind, `clear` sends
 * `-<held kind>`. What the bot holds is its bot reaction record in the store (BlueBubbles has no
 * list call), keyed by chat GUID and message GUID. Calls on one message run one after another.
 */
export function createReactions(client: BlueBubblesClient, record: BotReactionRecord): IMessageReactions {
  const send = async (ref: MessageRef, chatGuid: string, reaction: string): Promise<void> => {
    await client.react({ chatGuid, selectedMessageGuid: ref.messageId, reaction, partIndex: partOf(ref) });
  };

  const apply = async (ref: MessageRef, target: ReactionTarget, intent: ReactionIntent): Promise<ReactResult> => {
    const chatGuid = target.conversationId;
    const held = (await record.held(target)).find(isTapbackKind);
    if (intent.op === "add") {
      const kind = kindOf(intent);
      if (held !== kind) {
        await send(ref, chatGuid, kind);
        await record.hold(target, [kind]);
      }
      return { ok: true, action: "react", op: "add", emoji: kind };
    }
    // `remove` names one kind and touches only that one; `clear` empties the bot's slot.
    const removing = intent.op === "remove" ? kindOf(intent) : held;
    if (removing === undefined || held !== removing) return { ok: true, action: "react", op: intent.op, removed: [] };
    await send(ref, chatGuid, `-${removing}`);
    await record.hold(target, []);
    return { ok: true, action: "react", op: intent.op, removed: [removing] };
  };

  return {
    /** Executes one intent; adding what is held or removing what is absent is success (rule 10). */
    react(ref: MessageRef, intent: ReactionIntent): Promise<ReactResult> {
      const target: ReactionTarget = { conversationId: chatGuidOf(ref.conversationId), messageId: ref.messageId };
      return record.exclusive(target, () => apply(ref, target, intent));
    },
  };
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
