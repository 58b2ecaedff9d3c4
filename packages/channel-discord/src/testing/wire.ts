/**
 * Discord's wire shapes, as its documentation gives them (discord/discord-api-docs:
 * developers/events/gateway-events.mdx, resources/{message,user,guild,emoji}.mdx): snowflakes as
 * strings, nullable fields present as null, optional fields left out where Discord leaves them out.
 */
import { attachmentPath } from "./fake-cdn.js";
import type {
  FakeAttachment,
  FakeDiscordState,
  FakeEmoji,
  FakeGuild,
  FakeMessage,
  FakeSticker,
  FakeUser,
} from "./fake-state.js";

/** A user object: `id, username, discriminator, global_name, avatar` always, `bot` only for bots. */
export function wireUser(user: FakeUser): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    discriminator: user.discriminator ?? "0",
    global_name: user.global_name ?? null,
    avatar: user.avatar ?? null,
    ...(user.bot ? { bot: true } : {}),
  };
}

/** A guild member object; `user` is left out in MESSAGE_CREATE (`withUser: false`), as Discord does. */
export function wireMember(
  state: FakeDiscordState,
  guildId: string | undefined,
  userId: string,
  withUser: boolean,
): Record<string, unknown> | undefined {
  const member = state.member(guildId, userId);
  const user = state.users.get(userId);
  if (!member || !user) return undefined;
  return {
    ...(withUser ? { user: wireUser(user) } : {}),
    roles: member.roles,
    nick: member.nick ?? null,
    avatar: null,
    joined_at: "2024-01-01T00:00:00.000000+00:00",
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    communication_disabled_until: null,
  };
}

/** A reaction's partial emoji: `{id: null, name}` for unicode; custom ones carry `animated` only when animated. */
export function wireEmoji(emoji: FakeEmoji): Record<string, unknown> {
  if (emoji.id === null) return { id: null, name: emoji.name };
  return { id: emoji.id, name: emoji.name, ...(emoji.animated ? { animated: true } : {}) };
}

/**
 * An attachment object (resources/message.mdx "Attachment Object"): `id, filename, size, url,
 * proxy_url` always — the URLs signed now — and `content_type`, `width`/`height` (images),
 * `description`, `title`, `duration_secs`/`waveform` (voice messages) only where set.
 */
export function wireAttachment(
  state: FakeDiscordState,
  channelId: string,
  attachment: FakeAttachment,
): Record<string, unknown> {
  const { bytes: _bytes, ...fields } = attachment;
  const path = attachmentPath(channelId, attachment.id, attachment.filename);
  const links = state.links?.attachment(channelId, attachment) ?? {
    url: `https://cdn.discordapp.com${path}`,
    proxy_url: `https://media.discordapp.net${path}`,
  };
  return { ...fields, ...links };
}

/** A message sticker item (resources/sticker.mdx "Sticker Item Object"): `id, name, format_type`. */
export function wireStickerItem(sticker: FakeSticker): Record<string, unknown> {
  return { id: sticker.id, name: sticker.name, format_type: sticker.format_type };
}

/** A message object as REST returns it (no `member`, no `guild_id`). */
export function wireMessage(message: FakeMessage, state: FakeDiscordState): Record<string, unknown> {
  return {
    type: message.type,
    tts: false,
    timestamp: message.timestamp,
    pinned: false,
    mentions: message.mentions.map(wireUser),
    mention_roles: message.mention_roles,
    mention_everyone: message.mention_everyone,
    id: message.id,
    flags: message.flags,
    embeds: [],
    edited_timestamp: null,
    content: message.content,
    components: [],
    channel_id: message.channel_id,
    author: wireUser(message.author),
    attachments: message.attachments.map((a) => wireAttachment(state, message.channel_id, a)),
    ...(message.sticker_ids
      ? {
          sticker_items: message.sticker_ids.flatMap((id) => {
            const sticker = state.stickers.get(id);
            return sticker ? [wireStickerItem(sticker)] : [];
          }),
        }
      : {}),
    ...(message.webhook_id ? { webhook_id: message.webhook_id } : {}),
    ...(message.message_reference
      ? {
          message_reference: message.message_reference,
          referenced_message: message.referenced_message ? wireMessage(message.referenced_message, state) : null,
        }
      : {}),
  };
}

/**
 * MESSAGE_CREATE: the message plus `guild_id`, the author's `member` (without `user`; absent for
 * webhooks and in DMs), `channel_type`, and a partial `member` on each mentioned guild member.
 */
export function messageCreate(message: FakeMessage, state: FakeDiscordState): Record<string, unknown> {
  const guildId = message.guild_id;
  const member = message.webhook_id ? undefined : wireMember(state, guildId, message.author.id, false);
  return {
    ...wireMessage(message, state),
    mentions: message.mentions.map((user) => {
      const partial = wireMember(state, guildId, user.id, false);
      return { ...wireUser(user), ...(partial ? { member: partial } : {}) };
    }),
    channel_type: state.channel(message.channel_id)?.type ?? 0,
    ...(guildId !== undefined ? { guild_id: guildId } : {}),
    ...(member ? { member } : {}),
  };
}

/** MESSAGE_REACTION_ADD (with `member` in guilds and `message_author_id`) or _REMOVE (without either). */
export function reactionEvent(
  action: "add" | "remove",
  message: FakeMessage,
  userId: string,
  emoji: FakeEmoji,
  state: FakeDiscordState,
): Record<string, unknown> {
  const member = action === "add" ? wireMember(state, message.guild_id, userId, true) : undefined;
  return {
    user_id: userId,
    type: 0,
    message_id: message.id,
    ...(action === "add" ? { message_author_id: message.author.id } : {}),
    ...(member ? { member } : {}),
    emoji: wireEmoji(emoji),
    channel_id: message.channel_id,
    burst: false,
    ...(message.guild_id !== undefined ? { guild_id: message.guild_id } : {}),
  };
}

/** READY: the bot user, its guilds as unavailable (GUILD_CREATE fills them in), the session to resume. */
export function readyPayload(state: FakeDiscordState, sessionId: string, resumeUrl: string): Record<string, unknown> {
  return {
    v: 10,
    user: { ...wireUser(state.bot), bot: true, verified: true, mfa_enabled: false, flags: 0 },
    guilds: [...state.guilds.keys()].map((id) => ({ id, unavailable: true })),
    session_id: sessionId,
    session_type: "normal",
    resume_gateway_url: resumeUrl,
    application: { id: state.bot.id, flags: 0 },
    shard: [0, 1],
    private_channels: [],
    relationships: [],
    presences: [],
    guild_join_requests: [],
    geo_ordered_rtc_regions: [],
    user_settings: {},
  };
}

/** GUILD_CREATE: the guild object with its extra fields (members with `user`, channels, threads, …). */
export function guildCreate(state: FakeDiscordState, guild: FakeGuild): Record<string, unknown> {
  const channels = [...state.channels.values()].filter((c) => c.guild_id === guild.id);
  const role = (r: { id: string; name: string }, position: number) => ({
    id: r.id,
    name: r.name,
    permissions: "0",
    position,
    color: 0,
    hoist: false,
    managed: position > 0,
    mentionable: false,
    flags: 0,
  });
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    owner_id: state.bot.id,
    unavailable: false,
    large: false,
    member_count: guild.members.size,
    joined_at: "2024-01-01T00:00:00.000000+00:00",
    features: [],
    roles: [role({ id: guild.id, name: "@everyone" }, 0), ...guild.roles.map((r, i) => role(r, i + 1))],
    emojis: guild.emojis.map((e) => ({
      id: e.id,
      name: e.name,
      animated: e.animated === true,
      roles: [],
      require_colons: true,
      managed: false,
      available: true,
    })),
    stickers: [],
    members: [...guild.members.keys()].flatMap((id) => wireMember(state, guild.id, id, true) ?? []),
    channels: channels
      .filter((c) => c.type === 0)
      .map((c, i) => ({ id: c.id, type: c.type, name: c.name, position: i, permission_overwrites: [], nsfw: false })),
    threads: channels
      .filter((c) => c.type === 11)
      .map((c) => ({
        id: c.id,
        type: c.type,
        name: c.name,
        guild_id: guild.id,
        parent_id: c.parent_id,
        owner_id: state.bot.id,
        thread_metadata: {
          archived: false,
          auto_archive_duration: 1440,
          archive_timestamp: "2024-01-01T00:00:00.000000+00:00",
          locked: false,
        },
      })),
    presences: [],
    voice_states: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

/**
 * A MESSAGE_CREATE no client can read: the id a number (a snowflake written as a JSON number has
 * already lost its last digits) and no author. `deliverUnparseable` sends it.
 */
export function unreadableMessageCreate(channelId: string, guildId: string | undefined): Record<string, unknown> {
  return {
    id: Number("1290000000000000099"),
    type: 0,
    channel_id: channelId,
    ...(guildId !== undefined ? { guild_id: guildId } : {}),
    content: "a message without an author",
    timestamp: "2025-03-01T10:00:00.000000+00:00",
    mentions: [],
    mention_roles: [],
  };
}
