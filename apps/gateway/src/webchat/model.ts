import { randomBytes } from "node:crypto";
import { ChorusError, type GeoLocation } from "@chorus/core";
import type { PostOptions } from "./hub-options.js";
import { mediaUrl } from "./media-paths.js";
import { findMentions } from "./mentions.js";
import { directRoomId, LOBBY, roomKind } from "./rooms.js";
import type { StoredMessage, StoredReactions } from "./stored.js";
import {
  BOT_ID,
  type ChatMessageView,
  type ReactionView,
  type RoomInfo,
  type WebchatMedium,
  type WebchatUser,
} from "./types.js";
import { placeOf } from "./validate.js";

/** A message as the hub keeps it; reactions are emoji → user ids, both in insertion order. */
export interface MessageRecord {
  readonly id: string;
  readonly room: string;
  /** Its place in the room: 1 for the first message ever written there. */
  readonly seq: number;
  readonly senderId: string;
  readonly senderName: string;
  readonly text: string;
  readonly ts: number;
  readonly replyTo?: string;
  readonly mentions: readonly string[];
  readonly reactions: Map<string, string[]>;
  readonly media?: readonly WebchatMedium[];
  readonly location?: GeoLocation;
}

export interface RoomRecord {
  readonly id: string;
  /** Human members in the order they joined (the bot is in every room implicitly). */
  readonly members: string[];
  readonly messages: MessageRecord[];
  /** The `seq` of the room's next message. */
  nextSeq: number;
}

const REPLY_SNIPPET = 140;

/** The hub's data: people, rooms, bounded message lists and reactions, with their views. */
export class WebchatModel {
  readonly users = new Map<string, WebchatUser>();
  readonly rooms = new Map<string, RoomRecord>();
  readonly #messages = new Map<string, MessageRecord>();
  /** The media of kept messages by id. */
  readonly media = new Map<string, WebchatMedium>();
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
    const room: RoomRecord = { id, members: [], messages: [], nextSeq: 1 };
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
      seq: room.nextSeq++,
      senderId,
      senderName: sender.name,
      text,
      ts: Date.now(),
      ...(options.replyTo !== undefined ? { replyTo: options.replyTo } : {}),
      mentions: [...new Set([...named, ...explicit])].filter((id) => id !== senderId),
      reactions: new Map(),
      ...(options.media && options.media.length > 0 ? { media: [...options.media] } : {}),
      ...(options.location ? { location: options.location } : {}),
    };
  }

  /** Appends a message, dropping the oldest ones beyond `max` in its room; returns those dropped. */
  addMessage(room: RoomRecord, message: MessageRecord, max: number): MessageRecord[] {
    room.messages.push(message);
    room.nextSeq = Math.max(room.nextSeq, message.seq + 1);
    this.#messages.set(message.id, message);
    for (const medium of message.media ?? []) this.media.set(medium.id, medium);
    return this.trim(room, max);
  }

  /** Drops a room's oldest messages beyond `max`; returns them. */
  trim(room: RoomRecord, max: number): MessageRecord[] {
    const excess = room.messages.length - max;
    if (excess <= 0) return [];
    const dropped = room.messages.splice(0, excess);
    for (const message of dropped) {
      this.#messages.delete(message.id);
      for (const medium of message.media ?? []) this.media.delete(medium.id);
    }
    return dropped;
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
              text: gistOf(replied).slice(0, REPLY_SNIPPET),
            },
          }
        : {}),
      mentions: message.mentions.map((id) => this.#userOr(id, id)),
      reactions: this.reactionsView(message),
      ...(message.media
        ? { attachments: message.media.map(({ mediaId: _, ...medium }) => ({ ...medium, url: mediaUrl(medium.id) })) }
        : {}),
      ...(message.location ? { location: message.location } : {}),
    };
  }

  reactionsView(message: MessageRecord): ReactionView[] {
    return [...message.reactions].map(([emoji, users]) => ({
      emoji,
      users: users.map((id) => this.#userOr(id, id)),
    }));
  }

  #userOr(id: string, fallbackName: string): WebchatUser {
    return this.user(id) ?? { id, name: fallbackName };
  }
}

/** What a reply quotes of a message: its text, else the names of its media, else its place. */
function gistOf(message: MessageRecord): string {
  if (message.text.trim() !== "") return message.text;
  const named = (message.media ?? []).map((medium) => medium.filename);
  if (message.location)
    named.push(`📍 ${message.location.name ?? `${message.location.latitude}, ${message.location.longitude}`}`);
  return named.join(", ");
}

/** A message as the store keeps it (its reactions apart). */
export function storedMessageOf(message: MessageRecord): StoredMessage {
  return {
    id: message.id,
    senderId: message.senderId,
    senderName: message.senderName,
    text: message.text,
    ts: message.ts,
    ...(message.replyTo !== undefined ? { replyTo: message.replyTo } : {}),
    mentions: [...message.mentions],
    ...(message.media ? { media: message.media.map((medium) => ({ ...medium })) } : {}),
    ...(message.location ? { location: { ...message.location } } : {}),
  };
}

/** A message's reactions as the store keeps them. */
export function storedReactionsOf(message: MessageRecord): StoredReactions {
  return [...message.reactions].map(([emoji, users]) => [emoji, [...users]]);
}

/** A message record from what the store keeps. */
export function messageRecord(
  room: string,
  seq: number,
  stored: StoredMessage,
  reactions: StoredReactions = [],
): MessageRecord {
  return {
    id: stored.id,
    room,
    seq,
    senderId: stored.senderId,
    senderName: stored.senderName,
    text: stored.text,
    ts: stored.ts,
    ...(stored.replyTo !== undefined ? { replyTo: stored.replyTo } : {}),
    mentions: stored.mentions,
    reactions: new Map(reactions.filter(([, users]) => users.length > 0).map(([e, u]) => [e, [...new Set(u)]])),
    ...(stored.media && stored.media.length > 0 ? { media: stored.media as WebchatMedium[] } : {}),
    ...(stored.location ? { location: placeOf(stored.location) } : {}),
  };
}
