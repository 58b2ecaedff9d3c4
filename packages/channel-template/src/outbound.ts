import { ChorusError, type ConversationAddress, type MessageRef, type OutboundMessage, splitText } from "@chorus/core";
import type { AcmeClient } from "./client.js";
import { acmeMessageRef, type Identity } from "./ref.js";
import type { AcmeMessage } from "./wire.js";

/** Sending, typing and finding messages again: everything the bot does that is not a reaction. */
export class AcmeOutbound {
  constructor(
    private readonly client: AcmeClient,
    private readonly identity: () => Identity,
    private readonly maxTextLength: number,
  ) {}

  /** Sends `message`, split at Acme's limit; returns the ref of the first part. */
  async send(conversation: ConversationAddress, message: OutboundMessage): Promise<MessageRef> {
    // Before any request: a message sent by an instance that cannot mint its ref is lost to the agent.
    const who = this.identity();
    const path = `/v1/conversations/${encodeURIComponent(conversation.id)}/messages`;
    // Split on paragraph/sentence/word boundaries rather than let Acme refuse a long answer.
    const parts = splitText(message.text, this.maxTextLength);
    let first: MessageRef | undefined;
    for (const [index, text] of parts.entries()) {
      // Only the first part answers the question and mentions people; the rest continue it.
      const lead = index === 0;
      const sent = await this.client.request<AcmeMessage>("POST", path, {
        body: {
          text,
          ...(lead && message.replyTo ? { reply_to: message.replyTo.messageId } : {}),
          ...(lead && message.mentions?.length ? { mentions: message.mentions } : {}),
        },
      });
      first ??= this.#ref(sent, who);
    }
    return first as MessageRef;
  }

  /** Shows or hides "typing…" in a conversation. */
  async setTyping(conversation: ConversationAddress, on: boolean): Promise<void> {
    await this.client.request("POST", `/v1/conversations/${encodeURIComponent(conversation.id)}/typing`, {
      body: { on },
    });
  }

  /** The ref of a message the agent saw, checked to live in `conversation`. */
  async resolveMessageRef(conversation: ConversationAddress, messageId: string): Promise<MessageRef> {
    const message = await this.client.request<AcmeMessage>("GET", `/v1/messages/${encodeURIComponent(messageId)}`);
    // An id from another conversation must not let the agent react somewhere it is not talking.
    if (message.conversation_id !== conversation.id) {
      throw new ChorusError("E_MESSAGE_NOT_FOUND", `message ${messageId} is not in conversation ${conversation.id}`);
    }
    return this.#ref(message, this.identity());
  }

  #ref(message: AcmeMessage, who: Identity): MessageRef {
    const ids = { id: message.id, conversationId: message.conversation_id, authorId: message.author.id };
    return acmeMessageRef(ids, who);
  }
}
