import { randomBytes } from "node:crypto";
import { ChorusError } from "@chorus/core";
import type { PostOptions } from "./hub-options.js";
import { findMentions } from "./mentions.js";
import { directRoomId, LOBBY, roomKind } from "./rooms.js";
import type { StoredMessage, WebchatState } from "./state.js";
import { BOT_ID, type ChatMessageView, type ReactionView, type RoomInfo, type WebchatUser } from "./types.js";

/** A message as the hub keeps it; reactions are emoji → user ids, both in insertion order. */
export interface MessageRecord {
  readonly id: string;
  readonly room: string;
  readonly senderId: string;
  readonly senderName: string;
  readonly text: string;
  readonly ts: number;
  readonly replyTo?: string;
  readonly mentions: readonly string[];
  readonly reactions: Map<string, string[]>;
}

export interface RoomRecord {
  readonly id: string;
  /** Human members in the order they joined (the bot is in every room implicitly). */
  readonly members: string[];
  readonly messages: MessageRecord[];
}

const REPLY_SNIPPET = 140;

/** The hub's data: people, rooms, bounded message lists and reactions, with their views. */
export class WebchatModel {
  readonly users = new Map<string, WebchatUser>();
  readonly rooms = new Map<string, RoomRecord>();
  readonly #messages = new Map<string, MessageRecord>();
  bot: WebchatUser;

  constructor(botName: string) {
    this.bot = { id: BOT_ID, name: botName, bot: true };
  }

  /** A user by id (the bot included). */
  user(id: string): WebchatUser | undefined {
    return id === BOT_ID ? this.bot : this.users.get(id);
  }

  message(id: string): MessageRecord | undefined {
    return this.#messages.get(id);
  }

  /** A known person, or `E_AUTH` (they must say hello first). */
  requirePerson(userId: string): WebchatUser {
    const user = this.users.get(userId);
    if (!user) throw new ChorusError("E_AUTH", `unknown webchat user ${userId}`, { hint: "Say hello first." });
    return user;
  }

  /** A room `userId` may read and write in (the bot may everywhere), or a typed error why not. */
  requireMemberRoom(roomId: string, userId: string): RoomRecord {
    const room = this.rooms.get(roomId);
    if (!room) {
      throw new ChorusError("E_INVALID_INPUT", `there is no webchat room "${roomId}"`, {
        hint: `Rooms: ${[...this.rooms.keys()].slice(0, 20).join(", ")}`,
      });
    }
    if (userId !== BOT_ID) {
      this.requirePerson(userId);
      if (!room.members.includes(userId)) {
        throw new ChorusError("E_AUTH", `${userId} has not joined room ${roomId}`, { hint: "Join the room first." });
      }
    }
    return room;
  }

  /** A kept message, or `E_MESSAGE_NOT_FOUND`. */
  requireMessage(messageId: string, historyLimit: number): MessageRecord {
    const message = this.#messages.get(messageId);
    if (!message) {
      throw new ChorusError("E_MESSAGE_NOT_FOUND", `webchat message ${messageId} does not exist (or is too old)`, {
        hint: `Rooms keep their last ${historyLimit} messages.`,
      });
    }
    return message;
  }

  /** A person's direct room, the lobby, then the other rooms they joined by name. */
  roomsFor(userId: string): RoomRecord[] {
    const direct = directRoomId(userId);
    const joined = [...this.rooms.values()]
      .filter((room) => room.id !== direct && room.id !== LOBBY && room.members.includes(userId))
      .sort((a, b) => a.id.localeCompare(b.id));
    const first = [this.rooms.get(direct), this.rooms.get(LOBBY)].filter((room) => room !== undefined);
    return [...first, ...joined];
  }

  /** The room, created empty when it does not exist yet; `created` says which. */
  ensureRoom(id: string): { room: RoomRecord; created: boolean } {
    const existing = this.rooms.get(id);
    if (existing) return { room: existing, created: false };
    const room: RoomRecord = { id, members: [], messages: [] };
    this.rooms.set(id, room);
    return { room, created: true };
  }

  /**
   * A new message record from `senderId` (checked to be allowed in `room`), its mentions being
   * the `@Name`s of the room's participants in the text plus the explicit ones that are members.
   */
  newMessage(room: RoomRecord, senderId: string, text: string, options: PostOptions): MessageRecord {
    const sender = this.user(senderId) as WebchatUser;
    if (options.replyTo !== undefined && this.#messages.get(options.replyTo)?.room !== room.id) {
      throw new ChorusError("E_MESSAGE_NOT_FOUND", `message ${options.replyTo} is not in room ${room.id}`, {
        hint: "Reply to a message of the same room that is still in its history.",
      });
    }
    const members = room.members.map((id) => this.users.get(id)).filter((user) => user !== undefined);
    const named = findMentions(text, [this.bot, ...members]);
    const explicit = (options.mentions ?? []).filter((id) => id === BOT_ID || room.members.includes(id));
    return {
      id: `m_${randomBytes(9).toString("base64url")}`,
      room: room.id,
      senderId,
      senderName: sender.name,
      text,
      ts: Date.now(),
      ...(options.replyTo !== undefined ? { replyTo: options.replyTo } : {}),
      mentions: [...new Set([...named, ...explicit])].filter((id) => id !== senderId),
      reactions: new Map(),
    };
  }

  /** Appends a message, dropping the oldest ones beyond `max` in its room. */
  addMessage(room: RoomRecord, message: MessageRecord, max: number): void {
    room.messages.push(message);
    this.#messages.set(message.id, message);
    this.trim(room, max);
  }

  /** Drops a room's oldest messages beyond `max`. */
  trim(room: RoomRecord, max: number): void {
    const excess = room.messages.length - max;
    if (excess <= 0) return;
    for (const dropped of room.messages.splice(0, excess)) this.#messages.delete(dropped.id);
  }

  roomInfo(room: RoomRecord): RoomInfo {
    const kind = roomKind(room.id);
    return {
      id: room.id,
      kind,
      title: kind === "direct" ? this.bot.name : room.id,
      members: [this.bot, ...room.members.map((id) => this.#userOr(id, id))],
    };
  }

  messageView(message: MessageRecord): ChatMessageView {
    const replied = message.replyTo === undefined ? undefined : this.#messages.get(message.replyTo);
    return {
      id: message.id,
      room: message.room,
      sender: this.#userOr(message.senderId, message.senderName),
      text: message.text,
      ts: message.ts,
      ...(replied
        ? {
            replyTo: {
              id: replied.id,
              sender: this.#userOr(replied.senderId, replied.senderName),
              text: replied.text.slice(0, REPLY_SNIPPET),
            },
          }
        : {}),
      mentions: message.mentions.map((id) => this.#userOr(id, id)),
      reactions: this.reactionsView(message),
    };
  }

  reactionsView(message: MessageRecord): ReactionView[] {
    return [...message.reactions].map(([emoji, users]) => ({
      emoji,
      users: users.map((id) => this.#userOr(id, id)),
    }));
  }

  /** Everything, as the state file holds it. */
  toState(): WebchatState {
    return {
      version: 1,
      users: [...this.users.values()].map(({ id, name }) => ({ id, name })),
      rooms: [...this.rooms.values()].map((room) => ({
        id: room.id,
        members: [...room.members],
        messages: room.messages.map(storedMessage),
      })),
    };
  }

  /** Replaces everything with what a state file held, keeping at most `max` messages a room. */
  load(state: WebchatState, max: number): void {
    this.users.clear();
    this.rooms.clear();
    this.#messages.clear();
    for (const user of state.users) this.users.set(user.id, { id: user.id, name: user.name });
    for (const stored of state.rooms) {
      const { room } = this.ensureRoom(stored.id);
      room.members.push(...new Set(stored.members));
      for (const message of stored.messages) this.addMessage(room, messageRecord(room.id, message), max);
    }
  }

  #userOr(id: string, fallbackName: string): WebchatUser {
    return this.user(id) ?? { id, name: fallbackName };
  }
}

function storedMessage(message: MessageRecord): StoredMessage {
  return {
    id: message.id,
    senderId: message.senderId,
    senderName: message.senderName,
    text: message.text,
    ts: message.ts,
    ...(message.replyTo !== undefined ? { replyTo: message.replyTo } : {}),
    mentions: [...message.mentions],
    reactions: [...message.reactions].map(([emoji, users]) => [emoji, [...users]] as [string, string[]]),
  };
}

function messageRecord(room: string, stored: StoredMessage): MessageRecord {
  return {
    id: stored.id,
    room,
    senderId: stored.senderId,
    senderName: stored.senderName,
    text: stored.text,
    ts: stored.ts,
    ...(stored.replyTo !== undefined ? { replyTo: stored.replyTo } : {}),
    mentions: stored.mentions,
    reactions: new Map(stored.reactions.filter(([, users]) => users.length > 0).map(([e, u]) => [e, [...new Set(u)]])),
  };
}
