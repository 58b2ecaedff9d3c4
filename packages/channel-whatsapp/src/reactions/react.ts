import { BotReactionRecord, KeyedQueue } from "@chorus/channel-kit";
import type { MessageRef, ReactionIntent, ReactResult } from "@chorus/core";
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
export class WhatsAppReactions {
  /** One call per message at a time: with one slot, the order calls reach WhatsApp decides what stays. */
  readonly #queue = new KeyedQueue();

  constructor(private readonly deps: ReactionDeps) {}

  async react(ref: MessageRef, intent: ReactionIntent): Promise<ReactResult> {
    // Both refusals come before any request: a group message without its author (WhatsApp
    // would accept the reaction and show nothing), and something that is not an emoji.
    const key = messageKeyOf(ref, this.deps.who());
    if (intent.op !== "clear") whatsappEmoji(intent);
    const target = { conversationId: key.remoteJid as string, messageId: key.id as string };
    return this.#queue.run(BotReactionRecord.key(target), async () => {
      const plan = planReaction((await this.deps.record.held(target))[0], intent);
      if (plan.send === undefined) return plan.result;
      const text = plan.send;
      const messageId = generateMessageIDV2();
      const ack = this.deps.acks.expect(messageId, "reaction");
      try {
        // A failure before the stanza left may be retried; one without an ack is not repeated.
        const react = async () => {
          const socket = await this.deps.ready();
          await socket.sendMessage(
            target.conversationId,
            { react: { text, key } },
            { messageId, useCachedGroupMetadata: true },
          );
          return socket;
        };
        const socket = await withRetries(react, {
          retries: this.deps.retries,
          what: "react",
          signal: this.deps.signal,
        });
        await ack.confirmed(socket);
      } finally {
        ack.cancel();
      }
      await this.deps.record.hold(target, plan.hold === undefined ? [] : [plan.hold]);
      return plan.result;
    });
  }
}
