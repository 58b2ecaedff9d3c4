import { randomUUID } from "node:crypto";
import {
  type ChannelInstance,
  ChorusError,
  type ConversationAddress,
  locationText,
  type MessageRef,
  type OutboundMessage,
  type RefScope,
  splitText,
} from "@chorus/core";
import { directChatGuid } from "./addresses.js";
import type { BlueBubblesClient } from "./client.js";
import type { IMessageConfig } from "./config.js";
import { imessageRef } from "./inbound.js";
import { checkMedia, type SendText, sendMedia } from "./media-send.js";
import type { OwnMessages } from "./own-messages.js";

/** What the instance calls to send, show typing and find messages again. */
export type IMessageOutbound = Pick<ChannelInstance, "send" | "setTyping" | "resolveMessageRef">;

/**
 * Sending (text, and media: `media-send.ts`), typing and finding messages again: everything the
 * bot does that is not a tapback. `privateApi` says whether the server's Private API is usable, as
 * the last check found.
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

  /**
   * A message with media (`media-send.ts`), refused before anything is sent when the server would
   * refuse a file; every message it makes is the bot's. The ref is the first message's.
   */
  const sendWithMedia = async (chatGuid: string, message: OutboundMessage): Promise<MessageRef> => {
    checkMedia(message.media ?? []);
    const reply = message.replyTo ? { guid: message.replyTo.messageId, part: partOf(message.replyTo) } : undefined;
    const sendText: SendText = async (text, method, answering) => {
      const tempGuid = `temp-${randomUUID()}`;
      const sent = await client.sendText({
        chatGuid,
        tempGuid,
        message: text,
        // As for text: an inline reply needs the Private API.
        method: answering ? "private-api" : method,
        ...(answering ? { selectedMessageGuid: answering.guid, partIndex: answering.part } : {}),
      });
      return typeof sent?.guid === "string" && sent.guid !== "" ? sent.guid : tempGuid;
    };
    const guids = await sendMedia(client, { chatGuid, reply, privateApi: usePrivateApi() }, message, sendText);
    for (const guid of guids) await own.add(guid);
    const [first] = guids;
    if (first === undefined) throw new ChorusError("E_INVALID_INPUT", "nothing to send");
    return imessageRef(scope(), chatGuid, first, true);
  };

  return {
    /**
     * Sends `message` split at `maxTextLength`; the first part answers `replyTo` (an inline reply,
     * which needs the Private API). Returns the ref of the first part.
     */
    async send(conversation: ConversationAddress, message: OutboundMessage): Promise<MessageRef> {
      const chatGuid = chatGuidOf(conversation.id);
      if ((message.media?.length ?? 0) > 0) return sendWithMedia(chatGuid, message);
      const text = message.location
        ? [message.text, locationText(message.location)].filter((t) => t.trim() !== "").join("\n\n")
        : message.text;
      let first: MessageRef | undefined;
      for (const [index, part] of splitText(text, config.maxTextLength).entries()) {
        const reply = index === 0 ? message.replyTo : undefined;
        const tempGuid = `temp-${randomUUID()}`;
        const sent = await client.sendText({
          chatGuid,
          tempGuid,
          message: part,
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
