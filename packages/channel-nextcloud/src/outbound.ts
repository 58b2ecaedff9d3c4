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
import type { NextcloudUploads } from "./uploads.js";

/** What the instance calls to send and find messages again. */
export type TalkOutbound = Pick<ChannelInstance, "send" | "resolveMessageRef">;

/**
 * Sending and finding messages again: everything the bot does that is not a reaction. Media go
 * through `uploads` (the bot's files user); without it the bot API takes text only.
 */
export function createOutbound(
  client: HttpClient,
  scope: () => RefScope,
  maxTextLength: number,
  uploads?: NextcloudUploads,
): TalkOutbound {
  return {
    /**
     * Sends `message`: its text split at Talk's limit, then each medium shared into the
     * conversation; returns the ref of the first. Talk answers neither with an id (a bot's message
     * is an empty 201, a share names no message), so a ref names its `referenceId`.
     */
    async send(conversation: ConversationAddress, message: OutboundMessage): Promise<MessageRef> {
      const refScope = scope();
      const replyTo = message.replyTo ? messageNumber(message.replyTo) : undefined;
      const media = message.media ?? [];
      if (media.length > 0 && !uploads) throw noUploads();
      // Before anything is sent: a message cut short by a refusal halfway is worse than none.
      if (media.length > 0) uploads?.check(media);
      // The same referenceId on every attempt of one part lets clients spot a duplicate: from the
      // gateway's idempotency key when it resends a reply after a crash. Talk itself does not
      // deduplicate by it, so a send whose answer was lost is not repeated here.
      const referenceOf = (part: string) =>
        message.idempotencyKey
          ? createHash("sha256").update(`${message.idempotencyKey}:${part}`).digest("hex")
          : randomBytes(32).toString("hex");
      const refOf = (referenceId: string) =>
        mintRef(refScope, {
          conversationId: conversation.id,
          messageId: `ref:${referenceId}`,
          fromBot: true,
          data: { referenceId, pending: true },
        });
      const token = encodeURIComponent(conversation.id);
      let first: MessageRef | undefined;
      const texts = media.length > 0 && message.text.trim() === "" ? [] : splitText(message.text, maxTextLength);
      for (const [index, text] of texts.entries()) {
        const referenceId = referenceOf(String(index));
        await client.request({
          method: "POST",
          path: `${BOT_API_PATH}/${token}/message`,
          json: { message: text, referenceId, ...(index === 0 && replyTo !== undefined ? { replyTo } : {}) },
          operation: `send a message to ${conversation.id}`,
        });
        first ??= refOf(referenceId);
      }
      for (const [index, medium] of media.entries()) {
        const referenceId = referenceOf(`media:${index}`);
        await uploads?.share(conversation.id, medium, {
          referenceId,
          caption: medium.caption,
          replyTo: first === undefined ? replyTo : undefined,
        });
        first ??= refOf(referenceId);
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

function noUploads(): ChorusError {
  return new ChorusError("E_UNSUPPORTED", "Nextcloud Talk's bot API cannot upload files: media go out as links here.", {
    hint: "Give the bot a Nextcloud account for files (channels.nextcloud.files { user, appPassword }) to upload media.",
  });
}

function notAddressable(messageId: string): ChorusError {
  return new ChorusError(
    "E_MESSAGE_NOT_FOUND",
    `Nextcloud Talk message "${messageId}" cannot be addressed: Talk does not tell bots the id of messages they send, ` +
      "so only people's messages can be replied or reacted to.",
    { hint: "React to or reply to a message someone else wrote." },
  );
}
