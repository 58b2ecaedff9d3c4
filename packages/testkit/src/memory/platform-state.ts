import { MemoryMediaStore } from "./media-store.js";
import type { MemoryPlatformRules } from "./rules.js";
import type { WireConversation, WireEvent, WireMessage, WireReaction, WireUser } from "./wire.js";

type EventBody = WireEvent extends infer E ? (E extends WireEvent ? Omit<E, "seq" | "id"> : never) : never;

/** Everything the memory platform holds, and the only code that changes it. */
export class MemoryPlatformState {
  readonly users = new Map<string, WireUser>();
  readonly conversations = new Map<string, WireConversation>();
  readonly messages = new Map<string, WireMessage>();
  readonly reactions = new Map<string, WireReaction[]>();
  readonly typing = new Map<string, boolean>();
  /** Every medium uploaded or sent by someone, and the bytes downloads served. */
  readonly media = new MemoryMediaStore();
  /** The event stream; entries are events, or raw values a test injected to model a broken payload. */
  readonly events: WireEvent[] = [];
  #nextId = 1;
  #waiters = new Set<() => void>();

  constructor(
    readonly rules: MemoryPlatformRules,
    readonly bot: WireUser,
  ) {
    this.users.set(bot.id, bot);
  }

  addConversation(conversation: WireConversation): WireConversation {
    const withBot = conversation.members.some((m) => m.id === this.bot.id)
      ? conversation
      : { ...conversation, members: [...conversation.members, this.bot] };
    for (const member of withBot.members) this.users.set(member.id, member);
    this.conversations.set(withBot.id, withBot);
    return withBot;
  }

  postMessage(input: Omit<WireMessage, "id" | "ts" | "replyTo"> & { replyToId?: string; ts?: number }): WireMessage {
    const conversation = this.#conversation(input.conversationId);
    const { replyToId, ...fields } = input;
    const original = replyToId === undefined ? undefined : this.messages.get(replyToId);
    if (replyToId !== undefined && !original) throw new Error(`memory platform: no message ${replyToId} to reply to`);
    const message: WireMessage = {
      ...fields,
      ...(original ? { replyTo: { id: original.id, senderId: original.senderId } } : {}),
      id: `m${this.#nextId++}`,
      ts: input.ts ?? Date.now(),
    };
    this.messages.set(message.id, message);
    this.#push({ type: "message", message, conversation, sender: this.#user(message.senderId) });
    return message;
  }

  /** Adds a reaction; false when that user already has exactly it. Single-slot replaces. */
  addReaction(messageId: string, userId: string, emoji: string): boolean {
    const list = this.reactions.get(messageId) ?? [];
    if (list.some((r) => r.userId === userId && r.emoji === emoji)) return false;
    if (this.rules.singleSlot) {
      for (const old of list.filter((r) => r.userId === userId)) this.removeReaction(messageId, userId, old.emoji);
    }
    const reaction = { userId, emoji };
    this.reactions.set(messageId, [...(this.reactions.get(messageId) ?? []), reaction]);
    this.#pushReaction("added", messageId, reaction);
    return true;
  }

  /** Removes a reaction; false when it was not there. */
  removeReaction(messageId: string, userId: string, emoji: string): boolean {
    const list = this.reactions.get(messageId) ?? [];
    const kept = list.filter((r) => !(r.userId === userId && r.emoji === emoji));
    if (kept.length === list.length) return false;
    this.reactions.set(messageId, kept);
    this.#pushReaction("removed", messageId, { userId, emoji });
    return true;
  }

  reactionsBy(messageId: string, userId: string): string[] {
    return (this.reactions.get(messageId) ?? []).filter((r) => r.userId === userId).map((r) => r.emoji);
  }

  eventsAfter(seq: number): WireEvent[] {
    return this.events.filter((e) => e.seq > seq);
  }

  /** Resolves when an event newer than `seq` exists, or `timeoutMs` passed, or the signal fired. */
  waitForEvents(seq: number, timeoutMs: number, signal: AbortSignal): Promise<void> {
    if (this.eventsAfter(seq).length > 0 || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#waiters.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  /** Wakes every long poll (used when the platform shuts down). */
  wakeAll(): void {
    for (const wake of [...this.#waiters]) wake();
  }

  #pushReaction(action: "added" | "removed", messageId: string, reaction: WireReaction): void {
    const message = this.messages.get(messageId);
    if (!message) return;
    this.#push({
      type: "reaction",
      action,
      reaction,
      message,
      conversation: this.#conversation(message.conversationId),
      actor: this.#user(reaction.userId),
    });
  }

  #push(event: EventBody): void {
    const seq = this.events.length + 1;
    this.events.push({ ...event, id: `evt-${seq}`, seq } as WireEvent);
    this.wakeAll();
  }

  /** Puts an earlier event (the last one by default) in the stream again, as a platform redelivers: same id. */
  redeliver(id?: string): void {
    const event = id === undefined ? this.events.at(-1) : this.events.find((e) => e.id === id);
    if (!event) throw new Error(`memory platform: no event ${id ?? "yet"} to redeliver`);
    this.events.push({ ...event, seq: this.events.length + 1 });
    this.wakeAll();
  }

  /** Puts a raw value in the stream where an event belongs (a payload the plugin cannot parse). */
  pushRaw(value: Record<string, unknown>): void {
    this.events.push({ ...value, seq: this.events.length + 1 } as unknown as WireEvent);
    this.wakeAll();
  }

  #conversation(id: string): WireConversation {
    const conversation = this.conversations.get(id);
    if (!conversation) throw new Error(`memory platform: no conversation ${id}`);
    return conversation;
  }

  #user(id: string): WireUser {
    return this.users.get(id) ?? { id, name: id };
  }
}
