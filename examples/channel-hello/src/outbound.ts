import type { HttpClient } from "@chorus/channel-kit";
import { type ChannelInstance, ChorusError, type MessageRef, type RefScope, splitText } from "@chorus/core";
import { type HelloMessage, messageRef } from "./inbound.js";

/** The longest text the platform takes in one message. */
export const MAX_TEXT_LENGTH = 2000;

/** Sending (split at the limit; the first part replies and mentions), typing, and finding a message again. */
export function createOutbound(
  client: HttpClient,
  scope: () => RefScope,
): Pick<ChannelInstance, "send" | "setTyping" | "resolveMessageRef"> {
  const conversationPath = (id: string, what: string) => `/v1/conversations/${encodeURIComponent(id)}/${what}`;
  return {
    async send(conversation, { text, replyTo, mentions }) {
      const refs: MessageRef[] = [];
      for (const part of splitText(text, MAX_TEXT_LENGTH)) {
        const first = refs.length === 0;
        const json = {
          text: part,
          ...(first && replyTo && { replyToId: replyTo.messageId }),
          ...(first && { mentions }),
        };
        const path = conversationPath(conversation.id, "messages");
        const sent = await client.request<HelloMessage>({ method: "POST", path, json, operation: "send a message" });
        refs.push(messageRef(sent, scope()));
      }
      return refs[0] as MessageRef;
    },
    async setTyping(conversation, on) {
      await client.request({
        method: "POST",
        path: conversationPath(conversation.id, "typing"),
        json: { on },
        idempotent: true,
      });
    },
    async resolveMessageRef(conversation, messageId) {
      const found = await client.request<HelloMessage>({
        method: "GET",
        path: `/v1/messages/${encodeURIComponent(messageId)}`,
      });
      // An id from another conversation must not let the agent act where it is not talking.
      if (found.conversationId !== conversation.id)
        throw new ChorusError("E_MESSAGE_NOT_FOUND", `no message ${messageId} here`);
      return messageRef(found, scope());
    },
  };
}
