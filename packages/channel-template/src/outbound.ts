import { randomUUID } from "node:crypto";
import { type HttpClient, multipartBody, tooLarge } from "@chorus/channel-kit";
import {
  type ChannelInstance,
  ChorusError,
  type MessageRef,
  type OutboundMedium,
  type RefScope,
  splitText,
} from "@chorus/core";
import { postForm } from "./client.js";
import { messageRef } from "./inbound.js";
import { ACME_MAX_FILE_BYTES } from "./media.js";
import type { AcmeMessage } from "./wire.js";

/** The longest text Acme takes in one message. */
export const MAX_TEXT_LENGTH = 4000;

type Outbound = Pick<ChannelInstance, "send" | "setTyping" | "resolveMessageRef">;

/** Sending, typing and finding a message again: everything the bot does that is not a reaction. */
export function createOutbound(client: HttpClient, scope: () => RefScope): Outbound {
  const inConversation = (id: string, what: string) => `/v1/conversations/${encodeURIComponent(id)}/${what}`;

  /** One file and its caption as one Acme message (`POST …/files`, multipart `kind`, `text`, `file`). */
  const postFile = (conversationId: string, medium: OutboundMedium, text: string) => {
    // Refused before a byte is read: Acme would answer 413 only after the whole upload.
    if (medium.size > ACME_MAX_FILE_BYTES) throw tooLarge(`"${medium.filename}"`, ACME_MAX_FILE_BYTES, medium.size);
    const form = multipartBody([
      { name: "kind", value: medium.kind }, // core planned it as a kind Acme has (capabilities.media.send)
      ...(text !== "" ? [{ name: "text", value: text }] : []),
      // Streamed from the medium as the request goes out: never whole in memory.
      {
        name: "file",
        filename: medium.filename,
        contentType: medium.mime,
        size: medium.size,
        open: () => medium.open(),
      },
    ]);
    return postForm<AcmeMessage>(
      client,
      inConversation(conversationId, "files"),
      form,
      `send a file to ${conversationId}`,
    );
  };

  return {
    async send(conversation, message) {
      // Before any request: a message sent by an instance that cannot mint its ref is lost to the agent.
      const bot = scope();
      // Core plans one medium per message (perMessage: 1), its caption on it, or a pin alone.
      const media = message.media ?? [];
      if (media.length + (message.location ? 1 : 0) > 1) {
        throw new ChorusError("E_INVALID_INPUT", "Acme Chat takes one file or one location per message");
      }
      const [medium] = media;
      if (medium) return messageRef(await postFile(conversation.id, medium, medium.caption ?? message.text), bot);
      if (message.location) {
        const { latitude: lat, longitude: lng, name } = message.location;
        const sent = await client.request<AcmeMessage>({
          method: "POST",
          path: inConversation(conversation.id, "messages"),
          operation: `send a location to ${conversation.id}`,
          json: { text: message.text, location: { lat, lng, ...(name !== undefined && { name }) } },
          headers: { "idempotency-key": randomUUID() },
          idempotent: true,
        });
        return messageRef(sent, bot);
      }
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
