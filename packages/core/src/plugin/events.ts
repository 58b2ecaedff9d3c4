import type { Attachment } from "../media/attachment.js";
import type { MessageRef } from "./message-ref.js";

export type ChatType = "direct" | "group";

/** A member of a conversation, as far as the platform tells. */
export interface Participant {
  /** Platform user id. */
  readonly id: string;
  readonly name?: string;
  /** Phone number in E.164 (`+4915123456789`), where the platform has phone numbers. */
  readonly e164?: string;
  readonly isBot?: boolean;
}

/** Where a message was written. */
export interface Conversation {
  readonly id: string;
  readonly kind: ChatType;
  /** Group subject or channel name. */
  readonly title?: string;
  readonly members?: readonly Participant[];
  /** Thread or forum topic, which gets its own session. */
  readonly threadId?: string;
}

/** Where to send: a conversation, optionally a thread in it. */
export interface ConversationAddress {
  readonly id: string;
  readonly threadId?: string;
}

/** Mention facts the platform itself states (not guessed from text). */
export interface MentionFacts {
  /** The bot was mentioned explicitly. */
  readonly bot: boolean;
  /** Ids of others mentioned. */
  readonly others: readonly string[];
}

export interface ReplyContext {
  readonly messageId: string;
  /** The message replied to was the bot's. */
  readonly fromBot: boolean;
  readonly text?: string;
  readonly senderId?: string;
}

/** A chat message from a person, normalised by its plugin (DESIGN §3). */
export interface InboundMessageEvent {
  readonly type: "message";
  /**
   * Stable id of this platform event: a redelivery of it carries the same id. The gateway drops a
   * repeat of an `eventId` per channel account, so plugins need not deduplicate themselves.
   */
  readonly eventId: string;
  readonly conversation: Conversation;
  readonly sender: Participant;
  /** Text with platform markup resolved and ephemeral/view-once wrappers unwrapped. */
  readonly text: string;
  readonly mentions: MentionFacts;
  readonly replyTo?: ReplyContext;
  readonly ref: MessageRef;
  /** Milliseconds since the epoch, as the platform stamped it. */
  readonly timestamp: number;
  /**
   * Photos, voice notes, files, stickers, locations and contacts on the message (DESIGN §2.6), in
   * the platform's order; a message may be attachments only (its `text` empty). Absent: none.
   */
  readonly attachments?: readonly Attachment[];
}

/** A reaction someone added or removed. */
export interface InboundReactionEvent {
  readonly type: "reaction";
  /** Stable id of this platform event (see `InboundMessageEvent.eventId`). */
  readonly eventId: string;
  readonly conversation: Conversation;
  readonly target: MessageRef;
  readonly emoji: string;
  readonly action: "added" | "removed";
  readonly actor: Participant;
  readonly timestamp: number;
}

export type InboundEvent = InboundMessageEvent | InboundReactionEvent;
