import type { AcmeConversation, AcmeMessage, AcmeReactionSummary, AcmeUser } from "../wire.js";

/** One reaction: who reacted with what, in Acme's stored form. */
export interface FakeReaction {
  userId: string;
  emoji: string;
}

/** What a message is created from: by a person in a test, or by the bot over HTTP. */
export interface NewMessage {
  conversationId: string;
  author: AcmeUser;
  text: string;
  mentions?: string[];
  replyTo?: string;
}

/** Everything the fake Acme holds, and the only code that changes it. */
export class FakeAcmeState {
  readonly users = new Map<string, AcmeUser>();
  readonly conversations = new Map<string, AcmeConversation>();
  readonly messages = new Map<string, AcmeMessage>();
  /** Reactions per message id, in the order they were made. */
  readonly reactions = new Map<string, FakeReaction[]>();
  readonly typing = new Map<string, boolean>();
  #nextMessage = 1;

  constructor(readonly bot: AcmeUser) {
    this.users.set(bot.id, bot);
  }

  addConversation(conversation: AcmeConversation): AcmeConversation {
    for (const member of conversation.members ?? []) this.users.set(member.id, member);
    this.conversations.set(conversation.id, conversation);
    return conversation;
  }

  /** Creates a message; throws when its conversation or the message it replies to is unknown. */
  postMessage(input: NewMessage): AcmeMessage {
    if (!this.conversations.has(input.conversationId)) throw new Error(`no conversation ${input.conversationId}`);
    const original = input.replyTo === undefined ? undefined : this.messages.get(input.replyTo);
    if (input.replyTo !== undefined && original?.conversation_id !== input.conversationId) {
      throw new Error(`no message ${input.replyTo} in ${input.conversationId}`);
    }
    this.users.set(input.author.id, input.author);
    const message: AcmeMessage = {
      id: `msg_${this.#nextMessage++}`,
      conversation_id: input.conversationId,
      author: input.author,
      text: input.text,
      mentions: input.mentions ?? [],
      ...(original ? { reply_to: { id: original.id, author_id: original.author.id, text: original.text } } : {}),
      created_at: new Date().toISOString(),
    };
    this.messages.set(message.id, message);
    return message;
  }

  /** Adds a reaction; false when that user already has exactly this one. */
  addReaction(messageId: string, userId: string, emoji: string): boolean {
    const list = this.reactions.get(messageId) ?? [];
    if (list.some((r) => r.userId === userId && r.emoji === emoji)) return false;
    this.reactions.set(messageId, [...list, { userId, emoji }]);
    return true;
  }

  /** Removes a reaction; false when it was not there. */
  removeReaction(messageId: string, userId: string, emoji: string): boolean {
    const list = this.reactions.get(messageId) ?? [];
    const kept = list.filter((r) => !(r.userId === userId && r.emoji === emoji));
    this.reactions.set(messageId, kept);
    return kept.length !== list.length;
  }

  /** One user's reactions on a message, oldest first. */
  reactionsBy(messageId: string, userId: string): string[] {
    return (this.reactions.get(messageId) ?? []).filter((r) => r.userId === userId).map((r) => r.emoji);
  }

  /** Acme's listing: one entry per emoji, with the count and whether `callerId` is among them. */
  summary(messageId: string, callerId: string): AcmeReactionSummary[] {
    const byEmoji = new Map<string, string[]>();
    for (const r of this.reactions.get(messageId) ?? [])
      byEmoji.set(r.emoji, [...(byEmoji.get(r.emoji) ?? []), r.userId]);
    return [...byEmoji].map(([emoji, users]) => ({ emoji, count: users.length, me: users.includes(callerId) }));
  }

  conversationOf(message: AcmeMessage): AcmeConversation {
    return this.conversations.get(message.conversation_id) as AcmeConversation;
  }

  user(id: string): AcmeUser {
    return this.users.get(id) ?? { id, name: id };
  }
}
