import type { AcmeConversation, AcmeFile, AcmeLocation, AcmeMessage, AcmeUser, DeliveredUser } from "../wire.js";

/** Acme's closed reaction set, as the platform knows it (kept apart from the plugin's table on purpose). */
export const ACME_REACTION_NAMES: readonly string[] = [
  "thumbs_up",
  "heart",
  "laugh",
  "wow",
  "sad",
  "party",
  "fire",
  "eyes",
];

/** One reaction: who reacted with which of Acme's names. */
export interface FakeReaction {
  userId: string;
  name: string;
}

/** What a message is made from: by a person in a test, or by the bot over HTTP. */
export interface NewMessage {
  conversationId: string;
  author: DeliveredUser;
  text: string;
  mentions?: string[] | undefined;
  replyTo?: string | undefined;
  /** A file already stored (`FakeAcmeFiles`); the text is its caption. */
  file?: AcmeFile | undefined;
  location?: AcmeLocation | undefined;
}

/** Everything the fake Acme holds, and the only code that changes it. */
export class FakeAcmeState {
  readonly users = new Map<string, DeliveredUser>();
  readonly conversations = new Map<string, AcmeConversation>();
  readonly messages = new Map<string, AcmeMessage>();
  /** Reactions per message id, oldest first. */
  readonly reactions = new Map<string, FakeReaction[]>();
  readonly typing = new Map<string, boolean>();
  #nextMessage = 1;

  constructor(readonly bot: AcmeUser) {
    this.users.set(bot.id, bot);
  }

  addConversation(conversation: AcmeConversation): void {
    for (const member of conversation.members ?? []) this.users.set(member.id, member);
    this.conversations.set(conversation.id, conversation);
  }

  /** Stores a message; throws when its conversation, or the message it replies to there, is unknown. */
  postMessage(input: NewMessage): AcmeMessage {
    if (!this.conversations.has(input.conversationId)) throw new Error(`no conversation ${input.conversationId}`);
    const original = input.replyTo === undefined ? undefined : this.messages.get(input.replyTo);
    if (input.replyTo !== undefined && original?.conversation_id !== input.conversationId) {
      throw new Error(`no message ${input.replyTo} in ${input.conversationId}`);
    }
    this.users.set(input.author.id, input.author);
    // As Acme sends it: `mentions` and `reply_to` are left out, not empty, when there are none.
    const message: AcmeMessage = {
      id: `msg_${this.#nextMessage++}`,
      conversation_id: input.conversationId,
      author: input.author,
      text: input.text,
      ...(input.mentions?.length ? { mentions: input.mentions } : {}),
      ...(original ? { reply_to: { id: original.id, author_id: original.author.id, text: original.text } } : {}),
      ...(input.file ? { file: input.file } : {}),
      ...(input.location ? { location: input.location } : {}),
      created_at: new Date().toISOString(),
    };
    this.messages.set(message.id, message);
    return message;
  }

  /** Adds a reaction; false when that user already holds it. */
  addReaction(messageId: string, userId: string, name: string): boolean {
    const list = this.reactions.get(messageId) ?? [];
    if (list.some((r) => r.userId === userId && r.name === name)) return false;
    this.reactions.set(messageId, [...list, { userId, name }]);
    return true;
  }

  /** Removes a reaction; false when it was not there. */
  removeReaction(messageId: string, userId: string, name: string): boolean {
    const list = this.reactions.get(messageId) ?? [];
    const kept = list.filter((r) => !(r.userId === userId && r.name === name));
    this.reactions.set(messageId, kept);
    return kept.length !== list.length;
  }

  /** One user's reactions on a message, oldest first. */
  reactionsBy(messageId: string, userId: string): string[] {
    return (this.reactions.get(messageId) ?? []).filter((r) => r.userId === userId).map((r) => r.name);
  }

  conversationOf(message: AcmeMessage): AcmeConversation {
    return this.conversations.get(message.conversation_id) as AcmeConversation;
  }

  user(id: string): DeliveredUser {
    return this.users.get(id) ?? { id, name: id };
  }
}

/** A pin from a request body: undefined when absent, null when malformed. */
export function readLocation(value: unknown): AcmeLocation | undefined | null {
  if (value === undefined) return undefined;
  const { lat, lng, name } = (value ?? {}) as Record<string, unknown>;
  if (typeof lat !== "number" || typeof lng !== "number") return null;
  return { lat, lng, ...(typeof name === "string" && { name }) };
}
