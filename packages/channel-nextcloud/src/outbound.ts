import { createHash, randomBytes } from "node:crypto";
import type { HttpClient } from "@chorus/channel-kit";
import {
  type ChannelInstance,
  ChorusError,
  type ConversationAddress,
  type MessageRef,
  mintRef,
  type OutboundMessage,
  type RefScope,
  splitText,
} from "@chorus/core";
import { BOT_API_PATH } from "./client.js";

/** What the instance calls to send and find messages again. */
export type TalkOutbound = Pick<ChannelInstance, "send" | "resolveMessageRef">;

/** Sending and finding messages again: everything the bot does that is not a reaction. */
export function createOutbound(client: HttpClient, scope: () => RefScope, maxTextLength: number): TalkOutbound {
  return {
    /**
     * Sends `message`, split at Talk's limit; returns the ref of the first part. Talk answers a
     * bot's message with an empty 201, so the ref names the part's `referenceId`, not an id.
     */
    async send(conversation: ConversationAddress, message: OutboundMessage): Promise<MessageRef> {
      const refScope = scope();
      const replyTo = message.replyTo ? messageNumber(message.replyTo) : undefined;
      const token = encodeURIComponent(conversation.id);
      let first: MessageRef | undefined;
      for (const [index, text] of splitText(message.text, maxTextLength).entries()) {
        // The same referenceId on every attempt of one part lets clients spot a duplicate: from the
        // gateway's idempotency key when it resends a reply after a crash. Talk itself does not
        // deduplicate by it, so a send whose answer was lost is not repeated here.
        const referenceId = message.idempotencyKey
          ? createHash("sha256").update(`${message.idempotencyKey}:${index}`).digest("hex")
          : randomBytes(32).toString("hex");
        await client.request({
          method: "POST",
          path: `${BOT_API_PATH}/${token}/message`,
          json: { message: text, referenceId, ...(index === 0 && replyTo !== undefined ? { replyTo } : {}) },
          operation: `send a message to ${conversation.id}`,
        });
        first ??= mintRef(refScope, {
          conversationId: conversation.id,
          messageId: `ref:${referenceId}`,
          fromBot: true,
          data: { referenceId, pending: true },
        });
      }
      return first as MessageRef;
    },

    /** The ref of a message id the agent saw: Talk message ids are numbers within a conversation. */
    async resolveMessageRef(conversation: ConversationAddress, messageId: string): Promise<MessageRef> {
      if (!/^\d+$/u.test(messageId)) throw notAddressable(messageId);
      return mintRef(scope(), { conversationId: conversation.id, messageId, fromBot: false });
    },
  };
}

/** The numeric Talk id of a ref; the bot's own sent messages have none. */
export function messageNumber(ref: MessageRef): number {
  if (!/^\d+$/u.test(ref.messageId)) throw notAddressable(ref.messageId);
  return Number(ref.messageId);
}

function notAddressable(messageId: string): ChorusError {
  return new ChorusError(
    "E_MESSAGE_NOT_FOUND",
    `Nextcloud Talk message "${messageId}" cannot be addressed: Talk does not tell bots the id of messages they send, ` +
      "so only people's messages can be replied or reacted to.",
    { hint: "React to or reply to a message someone else wrote." },
  );
}
