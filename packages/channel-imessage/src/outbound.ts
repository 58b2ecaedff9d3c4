import { randomUUID } from "node:crypto";
import {
  type ChannelInstance,
  ChorusError,
  type ConversationAddress,
  type MessageRef,
  type OutboundMessage,
  type RefScope,
  splitText,
} from "@chorus/core";
import { directChatGuid } from "./addresses.js";
import type { BlueBubblesClient } from "./client.js";
import type { IMessageConfig } from "./config.js";
import { imessageRef } from "./inbound.js";
import type { OwnMessages } from "./own-messages.js";

/** What the instance calls to send, show typing and find messages again. */
export type IMessageOutbound = Pick<ChannelInstance, "send" | "setTyping" | "resolveMessageRef">;

/**
 * Sending, typing and finding messages again: everything the bot does that is not a tapback.
 * `privateApi` says whether the server's Private API is usable, as the last check found.
 */
export function createOutbound(
  client: BlueBubblesClient,
  config: IMessageConfig,
  scope: () => RefScope,
  own: OwnMessages,
  privateApi: () => boolean,
): IMessageOutbound {
  const usePrivateApi = (): boolean => {
    if (config.sendMethod === "auto") return privateApi();
    return config.sendMethod === "private-api";
  };

  return {
    /**
     * Sends `message` split at `maxTextLength`; the first part answers `replyTo` (an inline reply,
     * which needs the Private API). Returns the ref of the first part.
     */
    async send(conversation: ConversationAddress, message: OutboundMessage): Promise<MessageRef> {
      const chatGuid = chatGuidOf(conversation.id);
      let first: MessageRef | undefined;
      for (const [index, text] of splitText(message.text, config.maxTextLength).entries()) {
        const reply = index === 0 ? message.replyTo : undefined;
        const tempGuid = `temp-${randomUUID()}`;
        const sent = await client.sendText({
          chatGuid,
          tempGuid,
          message: text,
          method: reply || usePrivateApi() ? "private-api" : "apple-script",
          ...(reply ? { selectedMessageGuid: reply.messageId, partIndex: partOf(reply) } : {}),
        });
        const guid = typeof sent?.guid === "string" && sent.guid !== "" ? sent.guid : tempGuid;
        await own.add(guid);
        first ??= imessageRef(scope(), chatGuid, guid, true);
      }
      return first as MessageRef;
    },

    /** Shows or hides the typing bubble; without the Private API there is none, and nothing is sent. */
    async setTyping(conversation: ConversationAddress, on: boolean): Promise<void> {
      if (!privateApi()) return;
      await client.typing(chatGuidOf(conversation.id), on);
    },

    /** The ref of a message GUID the agent saw in a chat. */
    async resolveMessageRef(conversation: ConversationAddress, messageId: string): Promise<MessageRef> {
      if (messageId.trim() === "") {
        throw new ChorusError("E_MESSAGE_NOT_FOUND", "an iMessage message id (its GUID) is required");
      }
      return imessageRef(scope(), chatGuidOf(conversation.id), messageId, await own.has(messageId));
    },
  };
}

/** A chat GUID, also from a bare handle (`+15551234567`, `ann@example.com`) for direct messages. */
export function chatGuidOf(id: string): string {
  return id.includes(";") ? id : directChatGuid(id);
}

/** The message part a ref addresses (`data.part`, 0 by default). */
export function partOf(ref: MessageRef): number {
  const part = ref.data?.part;
  return typeof part === "number" && Number.isInteger(part) && part >= 0 ? part : 0;
}
