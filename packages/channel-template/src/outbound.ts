import { randomUUID } from "node:crypto";
import type { HttpClient } from "@chorus/channel-kit";
import { type ChannelInstance, ChorusError, type MessageRef, type RefScope, splitText } from "@chorus/core";
import { messageRef } from "./inbound.js";
import type { AcmeMessage } from "./wire.js";

/** The longest text Acme takes in one message. */
export const MAX_TEXT_LENGTH = 4000;

type Outbound = Pick<ChannelInstance, "send" | "setTyping" | "resolveMessageRef">;

/** Sending, typing and finding a message again: everything the bot does that is not a reaction. */
export function createOutbound(client: HttpClient, scope: () => RefScope): Outbound {
  const inConversation = (id: string, what: string) => `/v1/conversations/${encodeURIComponent(id)}/${what}`;
  return {
    async send(conversation, message) {
      // Before any request: a message sent by an instance that cannot mint its ref is lost to the agent.
      const bot = scope();
      const refs: MessageRef[] = [];
      // Split on paragraphs, sentences or words rather than let Acme refuse a long answer.
      for (const text of splitText(message.text, MAX_TEXT_LENGTH)) {
        // Only the first part answers and mentions; the rest continue it.
        const lead = refs.length === 0;
        const sent = await client.request<AcmeMessage>({
          method: "POST",
          path: inConversation(conversation.id, "messages"),
          operation: `send a message to ${conversation.id}`,
          json: {
            text,
            ...(lead && message.replyTo && { reply_to: message.replyTo.messageId }),
            ...(lead && message.mentions?.length && { mentions: message.mentions }),
          },
          // The same key on every attempt: Acme keeps one message per key, so the kit may retry
          // a POST whose answer was lost without sending the message twice.
          headers: { "idempotency-key": randomUUID() },
          idempotent: true,
        });
        refs.push(messageRef(sent, bot));
      }
      return refs[0] as MessageRef;
    },
    async setTyping(conversation, on) {
      const path = inConversation(conversation.id, "typing");
      await client.request({ method: "POST", path, json: { on }, idempotent: true });
    },
    async resolveMessageRef(conversation, messageId) {
      const path = `/v1/messages/${encodeURIComponent(messageId)}`;
      const message = await client.request<AcmeMessage>({ method: "GET", path });
      // An id from another conversation must not let the agent react where it is not talking.
      if (message.conversation_id !== conversation.id) {
        throw new ChorusError("E_MESSAGE_NOT_FOUND", `message ${messageId} is not in conversation ${conversation.id}`);
      }
      return messageRef(message, scope());
    },
  };
}
