import { emojiKey, type ResolvedEmoji, resolveEmoji, withSkinTone } from "@chorus/core";

/** A person or bot in the fake workspace. */
export interface FakeUser {
  id: string;
  /** The handle (`ann`). */
  name: string;
  real_name?: string;
  display_name?: string;
  is_bot?: boolean;
}

/** `channel` (public), `group` (private channel), `im` (direct message), `mpim` (group DM). */
export type FakeConversationType = "channel" | "group" | "im" | "mpim";

export interface FakeConversation {
  id: string;
  type: FakeConversationType;
  /** Channels have names; direct messages do not. */
  name?: string;
  members: string[];
}

/** One emoji on a message and who reacted with it, in Slack's shape. */
export interface FakeReaction {
  name: string;
  users: string[];
}

/** A message as the fake stores it, in the fields Slack's events and answers carry. */
export interface FakeMessage {
  channel: string;
  ts: string;
  user: string;
  text: string;
  bot_id?: string;
  app_id?: string;
  thread_ts?: string;
  parent_user_id?: string;
  subtype?: string;
  /** Slack file objects the message shares (`file_share`), as its events carry them. */
  files?: Record<string, unknown>[];
  /** The share happened at upload time. */
  upload?: boolean;
  blocks: unknown[];
  reactions: FakeReaction[];
}

/**
 * The fake Slack's truth: users, conversations, messages and reactions, and the only code that
 * changes them. Reactions are kept per emoji as Slack does: `thumbsup` and `+1` are one
 * reaction, held under the name it was first added with.
 */
export class FakeSlackState {
  readonly users = new Map<string, FakeUser>();
  readonly conversations = new Map<string, FakeConversation>();
  readonly messages = new Map<string, FakeMessage>();
  /** The workspace's custom emoji names. */
  readonly customEmoji = new Set<string>();
  #second = 1_700_000_000;
  #micro = 0;

  /** A fresh message timestamp, later than every earlier one. */
  nextTs(): string {
    this.#second = Math.max(this.#second, Math.floor(Date.now() / 1000));
    this.#micro += 100;
    return `${this.#second}.${String(this.#micro).padStart(6, "0")}`;
  }

  message(channel: string, ts: string): FakeMessage | undefined {
    return this.messages.get(`${channel}/${ts}`);
  }

  post(input: Omit<FakeMessage, "ts" | "reactions" | "blocks"> & { blocks?: unknown[] }): FakeMessage {
    const parent = input.thread_ts === undefined ? undefined : this.message(input.channel, input.thread_ts);
    const message: FakeMessage = {
      ...input,
      ts: this.nextTs(),
      blocks: input.blocks ?? richTextBlocks(input.text),
      reactions: [],
      ...(parent ? { parent_user_id: parent.user } : {}),
    };
    this.messages.set(`${message.channel}/${message.ts}`, message);
    return message;
  }

  /** The messages of a conversation, oldest first. */
  messagesIn(channel: string): FakeMessage[] {
    return [...this.messages.values()].filter((m) => m.channel === channel);
  }

  /** Whether Slack knows `name` as an emoji: a standard short name (no unicode), or a custom one. */
  knowsEmoji(name: string): boolean {
    if (this.customEmoji.has(name)) return true;
    return /^[a-z0-9_+'-]+(::skin-tone-[2-6])?$/.test(name) && slackEmoji(name) !== undefined;
  }

  /** Adds a reaction; false when that user already holds it. */
  addReaction(message: FakeMessage, user: string, name: string): boolean {
    const existing = message.reactions.find((r) => sameEmoji(r.name, name));
    if (existing?.users.includes(user)) return false;
    if (existing) existing.users.push(user);
    else message.reactions.push({ name, users: [user] });
    return true;
  }

  /** Removes a reaction; false when that user did not hold it. */
  removeReaction(message: FakeMessage, user: string, name: string): boolean {
    const existing = message.reactions.find((r) => sameEmoji(r.name, name));
    if (!existing?.users.includes(user)) return false;
    existing.users = existing.users.filter((u) => u !== user);
    if (existing.users.length === 0) message.reactions = message.reactions.filter((r) => r !== existing);
    return true;
  }

  /** One user's reactions on a message, by the names Slack holds them under. */
  reactionsBy(message: FakeMessage | undefined, user: string): string[] {
    return (message?.reactions ?? []).filter((r) => r.users.includes(user)).map((r) => r.name);
  }
}

/** The emoji a Slack short name stands for, skin tones (`thumbsup::skin-tone-3`: tones 2–6) included. */
function slackEmoji(name: string): ResolvedEmoji | undefined {
  const toned = /^(.+)::skin-tone-([2-6])$/.exec(name);
  const base = resolveEmoji(toned ? (toned[1] as string) : name);
  return toned && base ? withSkinTone(base, Number(toned[2]) - 1) : base;
}

function sameEmoji(a: string, b: string): boolean {
  if (a === b) return true;
  const [x, y] = [slackEmoji(a), slackEmoji(b)];
  return x !== undefined && y !== undefined && emojiKey(x.bare) === emojiKey(y.bare);
}

/**
 * The `rich_text` block Slack's clients attach to what people write: text, `user` elements for
 * `<@U…>`, `broadcast` for `<!here>`, `channel` for `<#C…>`, `link` for `<url|label>`.
 */
export function richTextBlocks(text: string): unknown[] {
  const elements: unknown[] = [];
  let at = 0;
  for (const match of text.matchAll(/<([^<>]+)>/g)) {
    if (match.index > at) elements.push({ type: "text", text: unescapeText(text.slice(at, match.index)) });
    elements.push(element(match[1] as string));
    at = match.index + match[0].length;
  }
  if (at < text.length) elements.push({ type: "text", text: unescapeText(text.slice(at)) });
  const section = { type: "rich_text_section", elements };
  return [{ type: "rich_text", block_id: Math.random().toString(36).slice(2, 7), elements: [section] }];
}

function element(inner: string): unknown {
  const [target = "", label] = inner.split("|");
  if (target.startsWith("@")) return { type: "user", user_id: target.slice(1) };
  if (target.startsWith("#")) return { type: "channel", channel_id: target.slice(1) };
  if (target.startsWith("!")) return { type: "broadcast", range: target.slice(1) };
  return { type: "link", url: target, ...(label ? { text: label } : {}) };
}

function unescapeText(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}
