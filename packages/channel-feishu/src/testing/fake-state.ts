import { randomBytes } from "node:crypto";
import type { FeishuMessage, FeishuReaction } from "../wire.js";

/** A person on the fake tenant, with the three ids Feishu gives one. */
export interface FakeUser {
  open_id: string;
  union_id: string;
  user_id: string;
  name: string;
}

/** A chat: a group, a topic group or a direct (p2p) chat with the bot. */
export interface FakeChat {
  chat_id: string;
  name: string;
  chat_mode: "group" | "topic" | "p2p";
  /** The people in it (open_ids); the bot is counted apart. */
  members: string[];
  /** Whether the app's bot is in the chat: outside it, it may not send or react there. */
  botIn: boolean;
}

/** A message as the fake stores it: the Open API's shape, plus when it was withdrawn. */
export interface FakeMessage extends FeishuMessage {
  body: { content: string };
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** Everything the fake Feishu holds, and the only code that changes it. */
export class FakeFeishuState {
  readonly users = new Map<string, FakeUser>();
  readonly chats = new Map<string, FakeChat>();
  readonly messages = new Map<string, FakeMessage>();
  /** Reactions per message id, oldest first. */
  readonly reactions = new Map<string, FeishuReaction[]>();

  constructor(
    readonly appId: string,
    readonly tenantKey: string,
  ) {}

  /** A person, with ids shaped like Feishu's (`ou_…`, `on_…`). */
  addUser(name: string, openId = `ou_${hex(16)}`): FakeUser {
    const user = { open_id: openId, union_id: `on_${hex(16)}`, user_id: hex(4), name };
    this.users.set(user.open_id, user);
    return user;
  }

  addChat(chat: Omit<FakeChat, "chat_id" | "botIn"> & { chat_id?: string; botIn?: boolean }): FakeChat {
    const stored: FakeChat = { ...chat, chat_id: chat.chat_id ?? `oc_${hex(16)}`, botIn: chat.botIn ?? true };
    this.chats.set(stored.chat_id, stored);
    return stored;
  }

  /** Stores a message (by a person or by the app); its thread and root follow the one it replies to. */
  postMessage(input: {
    chatId: string;
    sender: FeishuMessage["sender"];
    msgType: string;
    content: string;
    parentId?: string;
    inThread?: boolean;
    mentions?: FeishuMessage["mentions"];
  }): FakeMessage {
    const parent = input.parentId === undefined ? undefined : this.messages.get(input.parentId);
    const chat = this.chats.get(input.chatId);
    const id = `om_${hex(16)}`;
    const root = parent ? (parent.root_id ?? parent.message_id) : undefined;
    // A reply in a thread (or any message of a topic group) lives in the thread of its root.
    const startsThread = input.inThread === true || chat?.chat_mode === "topic";
    const threadId = parent?.thread_id ?? (startsThread ? `omt_${hex(8)}` : undefined);
    if (parent && threadId && !parent.thread_id) parent.thread_id = threadId;
    const now = String(Date.now());
    const message: FakeMessage = {
      message_id: id,
      ...(root ? { root_id: root, parent_id: parent?.message_id as string } : {}),
      ...(threadId ? { thread_id: threadId } : {}),
      msg_type: input.msgType,
      create_time: now,
      update_time: now,
      deleted: false,
      updated: false,
      chat_id: input.chatId,
      sender: input.sender,
      body: { content: input.content },
      ...(input.mentions?.length ? { mentions: input.mentions } : {}),
    };
    this.messages.set(id, message);
    return message;
  }

  /**
   * Adds a reaction. A person holds one of each emoji_type in Feishu's client; what the API answers
   * to a second add of the same one is not documented, so the fake returns the first (the plugin
   * never asks twice: it lists before it adds).
   */
  addReaction(messageId: string, operator: FeishuReaction["operator"], emojiType: string): FeishuReaction {
    const list = this.reactions.get(messageId) ?? [];
    const same = list.find(
      (r) => r.operator.operator_id === operator.operator_id && r.reaction_type.emoji_type === emojiType,
    );
    if (same) return same;
    const reaction: FeishuReaction = {
      reaction_id: randomBytes(24).toString("base64url"),
      operator,
      action_time: String(Date.now()),
      reaction_type: { emoji_type: emojiType },
    };
    this.reactions.set(messageId, [...list, reaction]);
    return reaction;
  }

  /** Removes a reaction by id; the removed one, or undefined when there was none. */
  removeReaction(messageId: string, reactionId: string): FeishuReaction | undefined {
    const list = this.reactions.get(messageId) ?? [];
    const gone = list.find((r) => r.reaction_id === reactionId);
    this.reactions.set(
      messageId,
      list.filter((r) => r !== gone),
    );
    return gone;
  }

  /** One operator's emoji_types on a message, oldest first. */
  reactionsBy(messageId: string, operatorId: string): string[] {
    return (this.reactions.get(messageId) ?? [])
      .filter((r) => r.operator.operator_id === operatorId)
      .map((r) => r.reaction_type.emoji_type);
  }

  /** A person, or a stand-in for an id the fake was not told about. */
  user(openId: string): FakeUser {
    return this.users.get(openId) ?? { open_id: openId, union_id: "", user_id: "", name: openId };
  }
}
