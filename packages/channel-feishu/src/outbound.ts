import { createHash, randomUUID } from "node:crypto";
import {
  type ChannelInstance,
  type ChannelStore,
  ChorusError,
  type ConversationAddress,
  isChorusError,
  type Logger,
  locationText,
  type MessageRef,
  mintRef,
  type OutboundMedium,
  type RefScope,
  splitText,
} from "@chorus/core";
import type { FeishuApi, OutgoingContent } from "./api.js";
import { plainText } from "./content.js";
import type { FeishuDirectory } from "./directory.js";
import { threadRootKey } from "./inbound.js";
import { checkMediaLimits, type MediumMessage } from "./media-send.js";
import type { FeishuMessage } from "./wire.js";

/** Feishu's documented limit for a rich-text (`post`) message: a request body of at most 30 KB. */
export const MAX_POST_REQUEST_BYTES = 30 * 1024;
/** Room left in a request for everything but the text (receive_id, msg_type, uuid, the post's frame). */
const REQUEST_OVERHEAD_BYTES = 1024;
/** About how many characters fit one message (CJK text: 3 bytes each); the byte limit decides. */
export const MAX_TEXT_LENGTH = 9_000;

/**
 * The agent's Markdown as a `post` whose one paragraph is an `md` element: Feishu renders the
 * Markdown itself (bold, links, lists, code), and `<at user_id="ou_…"></at>` mentions someone.
 */
export function postContent(markdown: string): string {
  return JSON.stringify({ zh_cn: { content: [[{ tag: "md", text: markdown }]] } });
}

/** The size a part of the text takes in the request body: its post content, escaped into JSON twice. */
const requestBytes = (text: string) => Buffer.byteLength(JSON.stringify(postContent(text)));

/** Feishu's longest `uuid` (50 characters). */
const MAX_UUID_LENGTH = 50;

/**
 * The `uuid` of the `index`th Feishu message of one outbound message: Feishu drops a repeat of a
 * uuid within an hour, so a message the gateway's outbox resends after a crash (same idempotency
 * key) is not sent twice. A key too long to fit is hashed, so no two messages share one.
 */
function uuidFor(idempotencyKey: string | undefined, index: number): string {
  if (!idempotencyKey) return randomUUID();
  const plain = `${idempotencyKey}-${index}`;
  if (plain.length <= MAX_UUID_LENGTH) return plain;
  return `${createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 40)}-${index}`;
}

/** What a media message reads as when someone replies to it (`[image]`, `[file: report.pdf]`). */
function noteOf(made: MediumMessage, medium: OutboundMedium): string {
  return made.msg_type === "file" ? `[file: ${medium.filename}]` : plainText(made.msg_type, "{}", new Map());
}

type Outbound = Pick<ChannelInstance, "send" | "setTyping" | "resolveMessageRef">;

/** Sending, typing and finding a message again: everything the bot does that is not a reaction. */
export function createOutbound(
  api: FeishuApi,
  directory: FeishuDirectory,
  store: ChannelStore,
  scope: () => RefScope,
  logger: Logger,
  mediumMessage: (medium: OutboundMedium) => Promise<MediumMessage>,
): Outbound {
  const refOf = (message: FeishuMessage, threadId: string | undefined): MessageRef =>
    mintRef(scope(), {
      conversationId: message.chat_id,
      messageId: message.message_id,
      ...((message.thread_id ?? threadId) ? { threadId: message.thread_id ?? threadId } : {}),
      fromBot: true,
    });

  /** A reply; when its target was withdrawn meanwhile, outside a thread, a plain message instead. */
  const reply = async (conversation: ConversationAddress, target: string, content: OutgoingContent) => {
    const inThread = conversation.threadId !== undefined;
    try {
      return await api.replyMessage(target, content, inThread);
    } catch (error) {
      if (inThread || !isChorusError(error) || error.code !== "E_MESSAGE_NOT_FOUND") throw error;
      logger.debug({ target }, "feishu: the message to reply to is gone; sending a plain message instead");
      return api.createMessage(conversation.id, content);
    }
  };

  return {
    /**
     * Sends `message` as Feishu messages, in order: its text (as posts of at most 30 KB), then each
     * medium as a message of its own, uploaded first (`media-send.ts`); a caption goes just before
     * its medium (Feishu's media messages carry no text). A medium over Feishu's limit is refused
     * before anything is sent. The first message replies; the rest follow it, inside the topic
     * thread when there is one. Returns the first message's ref.
     */
    async send(conversation, message) {
      // Before any request: a message sent by an instance that cannot mint its ref is lost to the agent.
      scope();
      const media = message.media ?? [];
      checkMediaLimits(media);
      const inThread = conversation.threadId !== undefined;
      const target = message.replyTo?.messageId ?? (inThread ? await threadRoot(store, conversation) : undefined);
      const refs: MessageRef[] = [];
      const post = async (content: Omit<OutgoingContent, "uuid">, text: string) => {
        const outgoing: OutgoingContent = { ...content, uuid: uuidFor(message.idempotencyKey, refs.length) };
        const sent =
          target !== undefined && (refs.length === 0 || inThread)
            ? await reply(conversation, target, outgoing)
            : await api.createMessage(conversation.id, outgoing);
        directory.learnMessage(sent, text);
        refs.push(refOf(sent, conversation.threadId));
      };
      // Split on paragraphs, sentences or words rather than let Feishu refuse a long answer.
      const texts = async (text: string) => {
        for (const part of splitText(text, MAX_POST_REQUEST_BYTES - REQUEST_OVERHEAD_BYTES, requestBytes)) {
          await post({ msg_type: "post", content: postContent(part) }, part);
        }
      };
      const mentions = (message.mentions ?? []).map((id) => `<at user_id="${id}"></at> `).join("");
      if (message.text.trim() !== "" || (media.length === 0 && !message.location)) {
        await texts(`${mentions}${message.text}`);
      }
      for (const medium of media) {
        if (medium.caption?.trim()) await texts(medium.caption);
        const made = await mediumMessage(medium);
        await post(made, noteOf(made, medium));
      }
      // Bots cannot send location messages; core plans a location as text, and one handed here goes so too.
      if (message.location) await texts(locationText(message.location));
      return refs[0] as MessageRef;
    },
    async setTyping() {
      // Feishu has no typing indicator for bots (capabilities.typing is false).
    },
    async resolveMessageRef(conversation, messageId) {
      const facts = await directory.message(messageId);
      // An id from another chat must not let the agent react where it is not talking.
      if (facts.chatId !== conversation.id) {
        throw new ChorusError("E_MESSAGE_NOT_FOUND", `message ${messageId} is not in chat ${conversation.id}`);
      }
      return mintRef(scope(), {
        conversationId: facts.chatId,
        messageId,
        ...(facts.threadId ? { threadId: facts.threadId } : {}),
        fromBot: facts.fromBot,
      });
    },
  };
}

/** The first message of a topic thread, learned from the events of that thread. */
async function threadRoot(store: ChannelStore, conversation: ConversationAddress): Promise<string> {
  const root = await store.get<string>(threadRootKey(conversation.threadId as string));
  if (typeof root === "string") return root;
  throw new ChorusError(
    "E_MESSAGE_NOT_FOUND",
    `no message of thread ${conversation.threadId} in chat ${conversation.id} is known to reply to`,
  );
}
