import type { BotReactionRecord } from "@chorus/channel-kit";
import type { ChannelInstance } from "@chorus/core";
import { generateMessageIDV2 } from "@whiskeysockets/baileys";
import type { MessageAcks } from "../connection/acks.js";
import type { WASocket } from "../connection/socket.js";
import type { BotIdentity } from "../jids.js";
import { messageKeyOf } from "../ref.js";
import { withRetries } from "../retry.js";
import { whatsappEmoji } from "./emoji.js";
import { planReaction } from "./plan.js";

/** What executing reactions needs from the instance. */
export interface ReactionDeps {
  readonly ready: () => Promise<WASocket>;
  /** The linked account; throws when there is none. */
  readonly who: () => BotIdentity;
  /** The bot reaction record in the channel's store: WhatsApp cannot list reactions. */
  readonly record: BotReactionRecord;
  /** WhatsApp's acks: the slot counts as changed once acknowledged. */
  readonly acks: MessageAcks;
  readonly retries: number;
  readonly signal: AbortSignal;
}

/**
 * Executes core's reaction intents: `sendMessage(chat, { react: { text, key } })` with the
 * message's full key (a group message's author as `participant`), keeping the bot reaction
 * record once WhatsApp acknowledged the change.
 */
export function createReactions(deps: ReactionDeps): Pick<ChannelInstance, "react"> {
  /** One call per message at a time: with one slot, the order calls reach WhatsApp decides what stays. */
  return {
    async react(ref, intent) {
      // Both refusals come before any request: a group message without its author (WhatsApp
      // would accept the reaction and show nothing), and something that is not an emoji.
      const key = messageKeyOf(ref, deps.who());
      if (intent.op !== "clear") whatsappEmoji(intent);
      const target = { conversationId: key.remoteJid as string, messageId: key.id as string };
      return deps.record.exclusive(target, async () => {
        const plan = planReaction((await deps.record.held(target))[0], intent);
        if (plan.send === undefined) return plan.result;
        const text = plan.send;
        const messageId = generateMessageIDV2();
        const ack = deps.acks.expect(messageId, "reaction");
        try {
          // A failure before the stanza left may be retried; one without an ack is not repeated.
          const react = async () => {
            const socket = await deps.ready();
            await socket.sendMessage(
              target.conversationId,
              { react: { text, key } },
              { messageId, useCachedGroupMetadata: true },
            );
            return socket;
          };
          const socket = await withRetries(react, { retries: deps.retries, what: "react", signal: deps.signal });
          await ack.confirmed(socket);
        } finally {
          ack.cancel();
        }
        await deps.record.hold(target, plan.hold === undefined ? [] : [plan.hold]);
        return plan.result;
      });
    },
  };
}
