/** Discord objects as the fake keeps them: wire-shaped (snake_case), so payloads are built by spreading. */
export interface FakeUser {
  id: string;
  username: string;
  global_name?: string | null;
  discriminator?: string;
  avatar?: string | null;
  bot?: boolean;
}

/** A user's membership of a guild. */
export interface FakeMember {
  roles: string[];
  /** The guild nickname, where set. */
  nick?: string;
}

export interface FakeRole {
  id: string;
  name: string;
}

export interface FakeEmoji {
  id: string | null;
  name: string;
  animated?: boolean;
}

/** A guild text channel (type 0), a public thread (11) or a DM (1). */
export interface FakeChannel {
  id: string;
  type: 0 | 1 | 11;
  name?: string;
  guild_id?: string;
  parent_id?: string;
  /** DMs: the person on the other side. */
  recipient?: FakeUser;
}

export interface FakeGuild {
  id: string;
  name: string;
  roles: FakeRole[];
  /** Custom emoji of the guild. */
  emojis: FakeEmoji[];
  /** Member user ids → their membership. */
  members: Map<string, FakeMember>;
}

/**
 * A file on a message as the fake keeps it: the attachment object's fields (resources/message.mdx
 * "Attachment Object"; the optional ones only where Discord sets them) and the bytes uploaded.
 */
export interface FakeAttachment {
  id: string;
  filename: string;
  size: number;
  content_type?: string;
  /** Images: their pixel size, read from the bytes. */
  width?: number;
  height?: number;
  description?: string;
  title?: string;
  /** Voice messages: the recording's length and its sampled waveform (base64, one byte per point). */
  duration_secs?: number;
  waveform?: string;
  bytes: Uint8Array;
}

/** A guild sticker: `format_type` 1 PNG, 2 APNG, 3 LOTTIE, 4 GIF (resources/sticker.mdx), and its file on the CDN. */
export interface FakeSticker {
  id: string;
  name: string;
  format_type: 1 | 2 | 3 | 4;
  bytes: Uint8Array;
}

/** Signs the CDN URLs of an attachment when a message is serialised (the fake CDN). */
export interface AttachmentLinks {
  attachment(channelId: string, attachment: FakeAttachment): { url: string; proxy_url: string };
}

export interface FakeMessage {
  id: string;
  channel_id: string;
  guild_id?: string;
  author: FakeUser;
  content: string;
  timestamp: string;
  type: 0 | 19;
  mentions: FakeUser[];
  mention_roles: string[];
  mention_everyone: boolean;
  message_reference?: { type: 0; message_id: string; channel_id: string; guild_id?: string };
  referenced_message?: FakeMessage | null;
  /** Set on messages a webhook posted (they have no guild member). */
  webhook_id?: string;
  /** Its files, in upload order. */
  attachments: FakeAttachment[];
  /** Message flags; IS_VOICE_MESSAGE = 1 << 13. */
  flags: number;
  /** Stickers sent with it (`sticker_items`). */
  sticker_ids?: string[];
}

/** One emoji on a message and who reacted with it, in reaction order. */
export interface FakeReaction {
  emoji: FakeEmoji;
  users: Set<string>;
}

const DISCORD_EPOCH = 1_420_070_400_000n;

/** Guilds, channels, messages and reactions per message and user, as the fake Discord holds them. */
export class FakeDiscordState {
  readonly users = new Map<string, FakeUser>();
  readonly guilds = new Map<string, FakeGuild>();
  readonly channels = new Map<string, FakeChannel>();
  readonly messages = new Map<string, FakeMessage>();
  /** Message id → emoji key (`name` or `name:id`) → reaction. */
  readonly reactions = new Map<string, Map<string, FakeReaction>>();
  /** Attachment id → the attachment and the channel its message is in. */
  readonly attachments = new Map<string, { channelId: string; attachment: FakeAttachment }>();
  readonly stickers = new Map<string, FakeSticker>();
  /** Set by the fake Discord: signs attachment URLs on its CDN. */
  links: AttachmentLinks | undefined;
  #counter = 0n;

  constructor(readonly bot: FakeUser) {
    this.users.set(bot.id, bot);
  }

  /** A fresh snowflake (time-based and increasing, as Discord's are). */
  snowflake(): string {
    this.#counter += 1n;
    return String(((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) + (this.#counter % 4096n));
  }

  addUser(user: FakeUser): FakeUser {
    this.users.set(user.id, user);
    return user;
  }

  channel(id: string): FakeChannel | undefined {
    return this.channels.get(id);
  }

  /** Stores a message; `mentions` are resolved from `<@id>` in the content (plus the replied-to author). */
  postMessage(input: {
    channelId: string;
    author: FakeUser;
    content: string;
    replyTo?: string;
    mentionRoles?: string[];
    /** Files, each given an attachment id here. */
    attachments?: Omit<FakeAttachment, "id">[];
    flags?: number;
    stickerIds?: string[];
  }): FakeMessage {
    const channel = this.channels.get(input.channelId);
    if (!channel) throw new Error(`fake Discord: no channel ${input.channelId}`);
    const mentioned = [...input.content.matchAll(/<@!?(\d+)>/g)]
      .map((m) => this.users.get(m[1] as string))
      .filter((u): u is FakeUser => u !== undefined);
    const roles = [...input.content.matchAll(/<@&(\d+)>/g)].map((m) => m[1] as string);
    const referenced = input.replyTo === undefined ? undefined : this.messages.get(input.replyTo);
    if (referenced && !mentioned.some((u) => u.id === referenced.author.id)) mentioned.push(referenced.author);
    const message: FakeMessage = {
      id: this.snowflake(),
      channel_id: channel.id,
      ...(channel.guild_id !== undefined ? { guild_id: channel.guild_id } : {}),
      author: input.author,
      content: input.content,
      timestamp: new Date().toISOString(),
      type: referenced ? 19 : 0,
      mentions: mentioned,
      mention_roles: [...new Set([...roles, ...(input.mentionRoles ?? [])])],
      mention_everyone: /@(everyone|here)\b/.test(input.content),
      attachments: (input.attachments ?? []).map((file) => ({ ...file, id: this.snowflake() })),
      flags: input.flags ?? 0,
      ...(input.stickerIds?.length ? { sticker_ids: input.stickerIds } : {}),
      ...(referenced
        ? {
            message_reference: {
              type: 0,
              message_id: referenced.id,
              channel_id: referenced.channel_id,
              ...(channel.guild_id !== undefined ? { guild_id: channel.guild_id } : {}),
            },
            referenced_message: { ...referenced, referenced_message: null },
          }
        : {}),
    };
    this.messages.set(message.id, message);
    for (const attachment of message.attachments)
      this.attachments.set(attachment.id, { channelId: channel.id, attachment });
    return message;
  }

  /** Adds `userId`'s reaction; false when it was already there. */
  react(messageId: string, userId: string, emoji: FakeEmoji): boolean {
    const onMessage = this.reactions.get(messageId) ?? new Map<string, FakeReaction>();
    this.reactions.set(messageId, onMessage);
    const key = emojiKeyOf(emoji);
    const reaction = onMessage.get(key) ?? { emoji, users: new Set<string>() };
    onMessage.set(key, reaction);
    if (reaction.users.has(userId)) return false;
    reaction.users.add(userId);
    return true;
  }

  /** Removes `userId`'s reaction; false when it was not there. */
  unreact(messageId: string, userId: string, key: string): boolean {
    const onMessage = this.reactions.get(messageId);
    const reaction = onMessage?.get(key);
    if (!onMessage || !reaction?.users.delete(userId)) return false;
    if (reaction.users.size === 0) onMessage.delete(key);
    return true;
  }

  /** Emoji keys a user holds on a message, in reaction order. */
  reactionsBy(messageId: string, userId: string): string[] {
    return [...(this.reactions.get(messageId)?.values() ?? [])]
      .filter((r) => r.users.has(userId))
      .map((r) => emojiKeyOf(r.emoji));
  }

  /** The membership of `userId` in the guild of `guildId`, if any. */
  member(guildId: string | undefined, userId: string): FakeMember | undefined {
    return guildId === undefined ? undefined : this.guilds.get(guildId)?.members.get(userId);
  }

  /** The `reactions` array of a message as Discord returns it to `userId`. */
  reactionSummary(messageId: string, userId: string): unknown[] {
    return [...(this.reactions.get(messageId)?.values() ?? [])].map((r) => ({
      emoji: r.emoji.id === null ? { id: null, name: r.emoji.name } : { ...r.emoji, animated: !!r.emoji.animated },
      count: r.users.size,
      count_details: { burst: 0, normal: r.users.size },
      me: r.users.has(userId),
      me_burst: false,
      burst_colors: [],
    }));
  }
}

/** How Discord names an emoji in a path: unicode as is, custom as `name:id`. */
export function emojiKeyOf(emoji: FakeEmoji): string {
  return emoji.id === null ? emoji.name : `${emoji.name}:${emoji.id}`;
}
