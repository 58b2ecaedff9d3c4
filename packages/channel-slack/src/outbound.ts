import { createHash } from "node:crypto";
import {
  type ChannelInstance,
  ChorusError,
  type ConversationAddress,
  type MessageRef,
  mintRef,
  type OutboundMessage,
  type RefScope,
} from "@chorus/core";
import type { SlackApi } from "./api.js";
import { type FilesSendOptions, sendFiles } from "./media-send.js";
import { splitMrkdwn, toMrkdwn } from "./mrkdwn.js";
import { checkFileSize } from "./upload.js";
import { slackTs } from "./wire.js";

/** Slack's advice for one message: longer text is truncated by clients, so it is split. */
export const MAX_TEXT_LENGTH = 4000;

type Outbound = Pick<ChannelInstance, "send" | "setTyping" | "resolveMessageRef">;

/** What sending needs of the account besides the API. */
export interface OutboundOptions {
  readonly replyInThread: boolean;
  /** How files are uploaded and their message found (`media-send.ts`). */
  readonly files: FilesSendOptions;
}

/** Sending, typing and finding a message again: everything the bot does that is not a reaction. */
export function createOutbound(api: SlackApi, scope: () => RefScope, options: OutboundOptions): Outbound {
  /** Posts mrkdwn in parts of at most 4,000 characters; the refs of the parts, in order. */
  const postText = async (
    bot: RefScope,
    conversation: ConversationAddress,
    mrkdwn: string,
    thread: string | undefined,
    idempotencyKey: string | undefined,
  ) => {
    const refs: MessageRef[] = [];
    for (const [part, text] of splitMrkdwn(mrkdwn, MAX_TEXT_LENGTH).entries()) {
      // Not repeated after a lost answer: a message posted twice is worse than an error the agent
      // sees. A reply the gateway's outbox resends after a crash carries the same client_msg_id
      // (a UUID from its idempotency key); Slack does not promise to drop repeats of it for bots.
      const clientMsgId = idempotencyKey ? clientMessageId(idempotencyKey, part) : undefined;
      const sent = await api.call(
        "chat.postMessage",
        (web) =>
          web.chat.postMessage({
            channel: conversation.id,
            text,
            ...(thread ? { thread_ts: thread } : {}),
            ...(clientMsgId ? { client_msg_id: clientMsgId } : {}),
          } as Parameters<typeof web.chat.postMessage>[0]),
        { idempotent: false },
      );
      if (typeof sent.ts !== "string") throw new ChorusError("E_PLATFORM", "Slack's chat.postMessage answer has no ts");
      const parts = { conversationId: sent.channel ?? conversation.id, messageId: sent.ts, fromBot: true };
      refs.push(mintRef(bot, { ...parts, ...(thread ? { threadId: thread } : {}) }));
    }
    return refs;
  };

  return {
    /**
     * Text alone: mrkdwn in 4,000-character parts. With media (planned by core, at most 10): the
     * files as one message whose `initial_comment` is the text and the items' captions; a comment
     * too long for one message goes first as text of its own. Returns the first message's ref.
     */
    async send(conversation, message) {
      const bot = scope();
      if (message.location) {
        throw new ChorusError("E_UNSUPPORTED", "Slack has no location pins: a location goes out as text.");
      }
      const thread = threadOf(conversation, message, options.replyInThread);
      const mentions = (message.mentions ?? []).map((id) => `<@${id}> `).join("");
      const media = message.media ?? [];
      if (media.length === 0) {
        const refs = await postText(
          bot,
          conversation,
          mentions + toMrkdwn(message.text),
          thread,
          message.idempotencyKey,
        );
        return refs[0] as MessageRef;
      }
      for (const medium of media) checkFileSize(medium);
      const words = [message.text, ...media.map((medium) => medium.caption ?? "")].filter((t) => t.trim() !== "");
      const comment = mentions + toMrkdwn(words.join("\n\n"));
      // Too long for a caption: posted as text of its own once Slack took the files, right before they are shared.
      const tooLong = comment.length > MAX_TEXT_LENGTH;
      let before: MessageRef[] = [];
      const postComment = async () => {
        before = await postText(bot, conversation, comment, thread, undefined);
      };
      const target = {
        channel: conversation.id,
        thread,
        ...(tooLong ? { beforeShare: postComment } : comment.trim() ? { comment } : {}),
      };
      const sent = await sendFiles(api, target, media, options.files);
      const ref = mintRef(bot, {
        conversationId: conversation.id,
        messageId: sent.ts ?? (sent.fileIds[0] as string),
        fromBot: true,
        ...(thread ? { threadId: thread } : {}),
      });
      return before[0] ?? ref;
    },
    // Bots have no typing indicator outside assistant threads (README): declared `typing: false`.
    async setTyping() {},
    async resolveMessageRef(conversation, messageId) {
      const bot = scope();
      const notFound = () =>
        new ChorusError("E_MESSAGE_NOT_FOUND", `no message ${messageId} in Slack conversation ${conversation.id}`);
      if (!slackTs.safeParse(messageId).success) throw notFound();
      const window = { channel: conversation.id, latest: messageId, oldest: messageId, inclusive: true, limit: 1 };
      const thread = conversation.threadId;
      const { messages = [] } = thread
        ? await api.call("conversations.replies", (web) => web.conversations.replies({ ...window, ts: thread }))
        : await api.call("conversations.history", (web) => web.conversations.history(window));
      const found = messages.find((m) => m.ts === messageId);
      if (!found) throw notFound();
      const threadId = found.thread_ts && found.thread_ts !== found.ts ? found.thread_ts : undefined;
      return mintRef(bot, {
        conversationId: conversation.id,
        messageId,
        ...(threadId ? { threadId } : {}),
        ...(found.user ? { authorId: found.user } : {}),
      });
    },
  };
}

/** The thread a message goes to: the conversation's, or with `replyInThread` one under the message answered. */
function threadOf(conversation: ConversationAddress, message: OutboundMessage, replyInThread: boolean) {
  if (conversation.threadId) return conversation.threadId;
  const replyTo = message.replyTo;
  // Direct messages (ids start with D) stay a chat: threads there help nobody.
  if (!replyInThread || !replyTo || replyTo.conversationId.startsWith("D")) return undefined;
  return replyTo.threadId ?? replyTo.messageId;
}

/** A UUID-shaped client_msg_id, the same for every attempt of one part of one reply. */
function clientMessageId(key: string, part: number): string {
  const hex = createHash("sha256").update(`${key}:${part}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
