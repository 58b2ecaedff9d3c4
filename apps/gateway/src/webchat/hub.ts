import { randomBytes } from "node:crypto";
import { type ChannelStore, ChorusError, type Logger, silentLogger } from "@chorus/core";
import { checkLimit, DEFAULT_HISTORY_LIMIT, type PostOptions, type WebchatHubOptions } from "./hub-options.js";
import { HubStore } from "./hub-store.js";
import { type MessageRecord, WebchatModel } from "./model.js";
import { clearReactionsOf, reactionsHeldBy, setReaction } from "./reactions.js";
import { restoreModel } from "./restore.js";
import { directRoomId, directRoomOwner, isUserId, LOBBY, normalizeRoomId } from "./rooms.js";
import {
  BOT_ID,
  type ChatMessageView,
  type HubEvent,
  type HubListener,
  type ReactionChange,
  type ReactionView,
  type RoomInfo,
  type WebchatMedium,
  type WebchatUser,
} from "./types.js";
import type { Uploads } from "./uploads.js";
import { checkText, cleanName, webchatEmoji } from "./validate.js";

/**
 * The webchat "platform": rooms (`lobby`, group rooms by name, and `dm:<userId>` direct rooms —
 * see `roomKind`), named participants, bounded message lists, per-user reactions, typing, and
 * listeners for all of it; kept in the channel's store (`stored.ts` says how).
 */
export class WebchatHub {
  readonly #model: WebchatModel;
  readonly #listeners = new Set<HubListener>();
  readonly #saved: HubStore | undefined;
  readonly #logger: Logger;
  #title: string;
  readonly #historyLimit: number;
  readonly #mediaDropped: ((media: readonly WebchatMedium[]) => void) | undefined;
  /** Files people upload for their messages (`SocketSession` claims them), where the hub keeps media. */
  readonly uploads: Uploads | undefined;

  /** A hub with nothing in it yet; one without `store` keeps nothing across restarts. */
  constructor(options: WebchatHubOptions = {}) {
    this.#logger = options.logger ?? silentLogger;
    this.#model = new WebchatModel(cleanName(options.botName ?? "Chorus"));
    this.#title = options.title ?? "Chorus";
    this.#historyLimit = checkLimit(options.historyLimit ?? DEFAULT_HISTORY_LIMIT);
    this.#mediaDropped = options.mediaDropped;
    this.uploads = options.uploads;
    this.#saved = options.store
      ? new HubStore(options.store, this.#model, {
          logger: this.#logger,
          ...(options.persistDelayMs !== undefined ? { delayMs: options.persistDelayMs } : {}),
        })
      : undefined;
    this.#model.ensureRoom(LOBBY);
  }

  /** A hub with what `store` kept from the last run (at most `historyLimit` messages a room). */
  static async load(options: WebchatHubOptions & { store: ChannelStore }): Promise<WebchatHub> {
    const hub = new WebchatHub(options);
    const dropped = await restoreModel(options.store, hub.#model, hub.#historyLimit, hub.#logger);
    for (const message of dropped) hub.#saved?.message(message);
    hub.#dropMedia(dropped);
    return hub;
  }

  /** The bot as participants see it (`id: "bot"`). */
  get bot(): WebchatUser {
    return this.#model.bot;
  }

  get title(): string {
    return this.#title;
  }

  get historyLimit(): number {
    return this.#historyLimit;
  }

  /**
   * A person arriving: a new identity, or the one `userId` names (renamed to `name` if it
   * changed). Their direct room with the bot is created with them in it.
   */
  identify(name: string, userId?: string): WebchatUser {
    const clean = cleanName(name);
    if (clean.toLocaleLowerCase() === this.bot.name.toLocaleLowerCase()) {
      throw new ChorusError("E_INVALID_INPUT", `"${clean}" is the bot's name`, { hint: "Choose another name." });
    }
    if (userId !== undefined && !isUserId(userId)) {
      throw new ChorusError("E_INVALID_INPUT", `userId "${userId.slice(0, 80)}" is not a webchat user id`, {
        hint: "Leave userId out to get a new identity.",
      });
    }
    const id = userId ?? `u_${randomBytes(12).toString("base64url")}`;
    const before = this.#model.users.get(id);
    const user: WebchatUser = { id, name: clean };
    this.#model.users.set(id, user);
    const { room: direct } = this.#model.ensureRoom(directRoomId(id));
    if (!direct.members.includes(id)) {
      direct.members.push(id);
      this.#saved?.room(direct.id);
    }
    if (before?.name !== clean) {
      for (const room of this.#model.rooms.values()) {
        if (room.members.includes(id)) this.#emit({ type: "room", room: this.#model.roomInfo(room) });
      }
      this.#saved?.user(id);
    }
    return user;
  }

  /** A participant by id (the bot included). */
  user(id: string): WebchatUser | undefined {
    return this.#model.user(id);
  }

  /** A room by id, or undefined. */
  room(id: string): RoomInfo | undefined {
    const room = this.#model.rooms.get(id);
    return room ? this.#model.roomInfo(room) : undefined;
  }

  /** Every room. */
  rooms(): RoomInfo[] {
    return [...this.#model.rooms.values()].map((room) => this.#model.roomInfo(room));
  }

  /** The rooms to offer a person: their direct room, the lobby, then the rooms they joined. */
  roomsFor(userId: string): RoomInfo[] {
    return this.#model.roomsFor(userId).map((room) => this.#model.roomInfo(room));
  }

  /** Joins a room by name, creating it if needed; a direct room only admits its owner. */
  join(roomName: string, userId: string): RoomInfo {
    const id = normalizeRoomId(roomName);
    this.#model.requirePerson(userId);
    const owner = directRoomOwner(id);
    if (owner !== undefined && owner !== userId) {
      throw new ChorusError("E_AUTH", `room ${id} is another person's direct chat with the bot`, {
        hint: "Join a group room by name instead.",
      });
    }
    const { room, created } = this.#model.ensureRoom(id);
    if (created || !room.members.includes(userId)) {
      if (!room.members.includes(userId)) room.members.push(userId);
      this.#emit({ type: "room", room: this.#model.roomInfo(room) });
      this.#saved?.room(room.id);
    }
    return this.#model.roomInfo(room);
  }

  /** Writes a message into a room as `senderId` (the bot, or a member). */
  post(roomId: string, senderId: string, text: string, options: PostOptions = {}): ChatMessageView {
    const room = this.#model.requireMemberRoom(roomId, senderId);
    const carriesMore = (options.media?.length ?? 0) > 0 || options.location !== undefined;
    const record = this.#model.newMessage(room, senderId, checkText(text, carriesMore), options);
    const dropped = this.#model.addMessage(room, record, this.#historyLimit);
    const view = this.#model.messageView(record);
    this.#emit({ type: "message", message: view });
    for (const message of [record, ...dropped]) this.#saved?.message(message);
    this.#dropMedia(dropped);
    return view;
  }

  /** A medium of a kept message, by id. */
  medium(id: string): WebchatMedium | undefined {
    return this.#model.media.get(id);
  }

  /** A message by id while it is kept, or undefined. */
  message(id: string): ChatMessageView | undefined {
    const record = this.#model.message(id);
    return record ? this.#model.messageView(record) : undefined;
  }

  /** The last `limit` messages of a room (all kept ones by default), oldest first. */
  messagesIn(roomId: string, limit?: number): ChatMessageView[] {
    const room = this.#model.rooms.get(roomId);
    if (!room) return [];
    const kept = limit === undefined ? room.messages : room.messages.slice(Math.max(0, room.messages.length - limit));
    return kept.map((message) => this.#model.messageView(message));
  }

  /** Adds (`on`) or removes one user's emoji on a message; false when nothing changed. */
  react(messageId: string, userId: string, emoji: string, on: boolean): boolean {
    const message = this.#reactable(messageId, userId);
    const key = webchatEmoji(emoji);
    if (!setReaction(message, key, userId, on)) return false;
    this.#reacted(message, [{ userId, emoji: key, action: on ? "added" : "removed" }]);
    return true;
  }

  /** Removes every reaction `userId` holds on a message; returns the emoji removed. */
  clearReactions(messageId: string, userId: string): string[] {
    const message = this.#reactable(messageId, userId);
    const removed = clearReactionsOf(message, userId);
    if (removed.length > 0) {
      this.#reacted(
        message,
        removed.map((emoji) => ({ userId, emoji, action: "removed" as const })),
      );
    }
    return removed;
  }

  /** The reactions on a message; `E_MESSAGE_NOT_FOUND` when it is not kept. */
  reactionsOf(messageId: string): ReactionView[] {
    return this.#model.reactionsView(this.#model.requireMessage(messageId, this.#historyLimit));
  }

  /** The emoji `userId` holds on a message. */
  reactionsBy(messageId: string, userId: string): string[] {
    return reactionsHeldBy(this.#model.requireMessage(messageId, this.#historyLimit), userId);
  }

  /** The emoji the bot holds on a message. */
  botReactions(messageId: string): string[] {
    return this.reactionsBy(messageId, BOT_ID);
  }

  /** Tells a room that `userId` started or stopped typing. */
  setTyping(roomId: string, userId: string, on: boolean): void {
    this.#model.requireMemberRoom(roomId, userId);
    this.#emit({ type: "typing", room: roomId, userId, on });
  }

  /** Calls `listener` with every change from now on; returns the function that stops it. */
  subscribe(listener: HubListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Resolves once the store holds everything changed so far. */
  async flush(): Promise<void> {
    await this.#saved?.flush();
  }

  /** Writes pending state and drops all listeners. */
  async close(): Promise<void> {
    this.#listeners.clear();
    await this.flush();
  }

  #reactable(messageId: string, userId: string): MessageRecord {
    const message = this.#model.requireMessage(messageId, this.#historyLimit);
    this.#model.requireMemberRoom(message.room, userId);
    return message;
  }

  #reacted(message: MessageRecord, changes: ReactionChange[]): void {
    const reactions = this.#model.reactionsView(message);
    this.#emit({ type: "reactions", room: message.room, messageId: message.id, reactions, changes });
    this.#saved?.reactions(message);
  }

  #dropMedia(messages: readonly MessageRecord[]): void {
    const media = messages.flatMap((message) => message.media ?? []);
    if (media.length > 0) this.#mediaDropped?.(media);
  }

  #emit(event: HubEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#logger.warn({ err: error, event: event.type }, "webchat listener failed");
      }
    }
  }
}
