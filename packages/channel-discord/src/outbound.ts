import {
  type ChannelInstance,
  ChorusError,
  type ConversationAddress,
  type MessageRef,
  type RefScope,
  splitText,
} from "@chorus/core";
import { type APIMessage, Routes } from "discord.js";
import type { DiscordRest } from "./client.js";
import { channelOfRef, discordMessageRef } from "./ref.js";
import { checkUploadLimits, contentOf, MessageUpload } from "./uploads.js";

/** Discord's limit for `content` of one message. */
export const DISCORD_MAX_TEXT = 2000;

/** Sending, typing and message lookup on Discord's REST API. */
export function createOutbound(
  rest: DiscordRest,
  scope: () => RefScope,
): Pick<ChannelInstance, "send" | "setTyping" | "resolveMessageRef"> {
  const refOf = (message: APIMessage, conversation: ConversationAddress): MessageRef => {
    const parentId = conversation.threadId !== undefined ? conversation.id : null;
    return discordMessageRef(
      { id: message.id, authorId: message.author.id, channelId: message.channel_id, parentId },
      scope(),
    );
  };
  return {
    /**
     * Sends text in 2000-character parts (the first as a reply, carrying the planned media as
     * `files[n]` with their captions as its content); returns the first part's ref.
     */
    async send(conversation, message) {
      const channelId = conversation.threadId ?? conversation.id;
      const media = message.media ?? [];
      const parts = splitText(media.length > 0 ? contentOf(message.text, media) : message.text, DISCORD_MAX_TEXT);
      checkUploadLimits(media); // before any part is sent or any medium opened
      let first: MessageRef | undefined;
      for (const [index, content] of parts.entries()) {
        const reply = index === 0 && message.replyTo ? message.replyTo : undefined;
        const withFiles = index === 0 && media.length > 0;
        const body = {
          ...(content !== "" || !withFiles ? { content } : {}),
          // Only users are pinged (never @everyone or roles), and only those the caller named.
          allowed_mentions: { parse: [], users: [...(message.mentions ?? [])], replied_user: true },
          ...(reply
            ? {
                message_reference: {
                  message_id: reply.messageId,
                  channel_id: channelOfRef(reply),
                  fail_if_not_exists: false,
                },
              }
            : {}),
        };
        // The planned media go with the first part: `files[n]` and `payload_json`, streamed (uploads.ts).
        const request = withFiles ? { body: new MessageUpload(media, body), passThroughBody: true } : { body };
        const sent = await rest.call<APIMessage>("post", Routes.channelMessages(channelId), "send", request);
        first ??= refOf(sent, conversation);
      }
      return first as MessageRef;
    },

    /** Shows "… is typing" (Discord clears it after ~10 s or with the next message; there is no "off"). */
    async setTyping(conversation, on) {
      if (!on) return;
      await rest.call("post", Routes.channelTyping(conversation.threadId ?? conversation.id), "typing");
    },

    /** Fetches the message to prove it exists and mints its ref; `E_MESSAGE_NOT_FOUND` when it does not. */
    async resolveMessageRef(conversation, messageId) {
      if (!/^\d{1,20}$/.test(messageId)) {
        throw new ChorusError(
          "E_MESSAGE_NOT_FOUND",
          `"${messageId}" is not a Discord message id (a snowflake of digits)`,
        );
      }
      const channelId = conversation.threadId ?? conversation.id;
      const message = await rest.call<APIMessage>("get", Routes.channelMessage(channelId, messageId), "fetch message");
      return refOf(message, conversation);
    },
  };
}
