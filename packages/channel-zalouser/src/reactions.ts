import type { BotReactionRecord } from "@chorus/channel-kit";
import { type ChannelInstance, type MessageRef, type ReactResult, unsupportedEmoji } from "@chorus/core";
import { Reactions } from "zca-js";
import { handleOf, type ZaloMessageHandle } from "./refs.js";
import { iconName, zaloIcon, zaloVocabulary } from "./vocabulary.js";

/** Sends one `addReaction` for a message: an icon, or `Reactions.NONE` to clear the bot's own. */
export type SendReaction = (icon: Reactions, message: ZaloMessageHandle) => Promise<void>;

/**
 * Executes the intents core decided (DESIGN §2.2, row Zalo Personal: no flags). Zalo can add an
 * icon and clear all of the bot's own (`Reactions.NONE`), nothing else: removing one icon clears
 * and adds back what else the bot holds, which the bot reaction record in `ctx.store` knows,
 * also after a restart. Calls on one message run one after another (the record's `exclusive`):
 * a removal that cleared and re-adds must not miss an icon another call added in between.
 */
export function createReactions(send: SendReaction, record: BotReactionRecord): Pick<ChannelInstance, "react"> {
  return {
    async react(ref, intent) {
      const message = handleOf(ref);
      const given = intent.emoji ?? "";
      const icon = zaloIcon(given);
      // Refused before any request, naming the closest icons Zalo does have.
      if (icon === undefined || icon === Reactions.NONE) throw unsupportedEmoji(given, zaloVocabulary, "Zalo");
      const name = iconName(icon);
      return record.exclusive(ref, async (): Promise<ReactResult> => {
        const held = await record.held(ref);
        if (intent.op === "add") {
          // Rule 10, and Zalo counts a repeated icon again: send nothing for what the bot holds.
          if (held.includes(icon)) return { ok: true, action: "react", op: "add", emoji: name };
          // Recorded first: when Zalo added it but its answer was lost, a later removal still knows it.
          await record.change(ref, (now) => [...now.filter((i) => i !== icon), icon]);
          await send(icon, message);
          return { ok: true, action: "react", op: "add", emoji: name };
        }
        // remove (core never sends clear: Zalo declares no clearAll).
        if (!held.includes(icon)) return { ok: true, action: "react", op: "remove", emoji: name, removed: [] };
        await removeOne(send, record, ref, message, icon);
        return { ok: true, action: "react", op: "remove", emoji: name, removed: [name] };
      });
    },
  };
}

/** Clears the bot's icons on the message, then adds back each one but `icon`, keeping the record true at every step. */
async function removeOne(
  send: SendReaction,
  record: BotReactionRecord,
  ref: MessageRef,
  message: ZaloMessageHandle,
  icon: string,
): Promise<void> {
  const keep = (await record.held(ref)).filter((i) => i !== icon);
  await send(Reactions.NONE, message);
  await record.hold(ref, []);
  for (const other of keep) {
    await send(other as Reactions, message);
    await record.change(ref, (now) => [...now.filter((i) => i !== other), other]);
  }
}
