import { ChorusError, type Conversation, type InboundEvent, mintRef, type RefScope, type z } from "@chorus/core";
import { attachmentsOf, isFileStub } from "./attachments.js";
import type { ConversationFacts, Directory } from "./directory.js";
import { emojiOfName } from "./emoji.js";
import { mentionedIn, mentionedInBlocks, resolveMarkup } from "./markup.js";
import * as wire from "./wire.js";

/** Who the bot is, learned from `auth.test` at start. */
export interface BotIdentity {
  /** The bot user (`U…`): refs, mentions, reactions. */
  readonly userId: string;
  /** The bot (`B…`): its messages carry it. */
  readonly botId?: string;
}

/** `files.info` for one file id: its full file object, or undefined when Slack would not say. */
export type FileLookup = (fileId: string) => Promise<unknown>;

/** Message subtypes that are still a person writing; every other subtype (edits, joins, …) is not followed. */
const FOLLOWED_SUBTYPES = new Set(["thread_broadcast", "file_share"]);

/**
 * Turns one Events API body (or Socket Mode payload) into a normalised event (DESIGN §3);
 * undefined for the bot's own messages and reactions, for subtypes and event types the channel
 * does not follow. Throws `E_INVALID_INPUT` naming each field it cannot read.
 *
 * A mention arrives twice, as `app_mention` and as `message`, for the same `ts`: both get the
 * `eventId` `<channel>/<ts>`, so the host keeps one. Slack's retries keep it too.
 */
export async function normalizePayload(
  payload: unknown,
  scope: RefScope,
  bot: BotIdentity,
  directory: Directory,
  lookupFile?: FileLookup,
): Promise<InboundEvent | undefined> {
  const envelope = read(wire.envelopeSchema, payload, "Events API body");
  if (envelope.type !== "event_callback") return undefined;
  const type = (envelope.event as { type?: unknown } | undefined)?.type;
  if (type === "message" || type === "app_mention") {
    const event = read(wire.messageEventSchema, envelope.event, `${type} event`);
    return normalizeMessage(event, scope, bot, directory, lookupFile);
  }
  if (type === "reaction_added" || type === "reaction_removed") {
    const event = read(wire.reactionEventSchema, envelope.event, `${type} event`);
    return normalizeReaction(event, envelope.event_id, scope, bot, directory);
  }
  return undefined;
}

async function normalizeMessage(
  event: wire.MessageEvent,
  scope: RefScope,
  bot: BotIdentity,
  directory: Directory,
  lookupFile: FileLookup | undefined,
): Promise<InboundEvent | undefined> {
  if (event.subtype !== undefined && !FOLLOWED_SUBTYPES.has(event.subtype)) return undefined;
  // Slack delivers the bot's own messages to it: answering them would loop.
  if (event.user === bot.userId || (bot.botId !== undefined && event.bot_id === bot.botId)) return undefined;
  if (event.user === undefined) {
    throw new ChorusError("E_INVALID_INPUT", `unreadable ${event.type} event: user: required for a person's message`);
  }
  const raw = event.text ?? "";
  const mentioned = new Set([...mentionedIn(raw), ...mentionedInBlocks(event.blocks)]);
  const [sender, facts, files] = await Promise.all([
    directory.user(event.user),
    directory.conversation(event.channel),
    completeFiles(event.files, lookupFile),
    ...[...mentioned].map((id) => directory.user(id)),
  ]);
  const attachments = attachmentsOf(files);
  const text = resolveMarkup(raw, {
    user: (id) => directory.knownName(id),
    channel: (id) => directory.knownChannel(id),
  });
  const threadId = event.thread_ts !== undefined && event.thread_ts !== event.ts ? event.thread_ts : undefined;
  const direct = event.channel_type === "im" || (event.channel_type === undefined && facts.isDirect);
  const conversation = conversationOf(facts, direct, threadId);
  return {
    type: "message",
    eventId: `${event.channel}/${event.ts}`,
    conversation,
    sender,
    text,
    ...(attachments.length > 0 ? { attachments } : {}),
    mentions: {
      // app_mention is Slack saying the bot was mentioned, whatever the text looks like.
      bot: event.type === "app_mention" || mentioned.has(bot.userId),
      others: [...mentioned].filter((id) => id !== bot.userId),
    },
    ...(threadId && {
      replyTo: {
        messageId: threadId,
        fromBot: event.parent_user_id === bot.userId,
        ...(event.parent_user_id ? { senderId: event.parent_user_id } : {}),
      },
    }),
    ref: mintRef(scope, {
      conversationId: event.channel,
      messageId: event.ts,
      authorId: event.user,
      ...(threadId ? { threadId } : {}),
    }),
    timestamp: Math.round(Number(event.ts) * 1000),
  };
}

async function normalizeReaction(
  event: wire.ReactionEvent,
  eventId: string | undefined,
  scope: RefScope,
  bot: BotIdentity,
  directory: Directory,
): Promise<InboundEvent | undefined> {
  // Slack tells the bot about its own reactions too.
  if (event.user === bot.userId) return undefined;
  const { channel, ts } = event.item;
  if (event.item.type !== "message" || channel === undefined || ts === undefined) return undefined;
  const [actor, facts] = await Promise.all([directory.user(event.user), directory.conversation(channel)]);
  const direct = event.item.channel_type === "im" || (event.item.channel_type === undefined && facts.isDirect);
  return {
    type: "reaction",
    // Slack's retries keep event_id; without one, what the event is about identifies it.
    eventId: eventId ?? `${event.type}/${channel}/${ts}/${event.user}/${event.reaction}/${event.event_ts}`,
    conversation: conversationOf(facts, direct, undefined),
    target: mintRef(scope, {
      conversationId: channel,
      messageId: ts,
      ...(event.item_user ? { authorId: event.item_user } : {}),
    }),
    emoji: emojiOfName(event.reaction),
    action: event.type === "reaction_added" ? "added" : "removed",
    actor,
    timestamp: Math.round(Number(event.event_ts) * 1000),
  };
}

/**
 * The message's files, each Slack Connect stub (`"file_access": "check_file_info"`: "make a request
 * to files.info if you need to access the full file object", Slack Connect docs) completed with
 * `files.info`. A lookup that fails keeps the stub: its attachment is a file, and `download` asks again.
 */
async function completeFiles(files: readonly unknown[] | undefined, lookupFile: FileLookup | undefined) {
  if (!files || !lookupFile || !files.some(isFileStub)) return files;
  return Promise.all(
    files.map(async (file) => (isFileStub(file) ? ((await lookupFile(file.id).catch(() => undefined)) ?? file) : file)),
  );
}

function conversationOf(facts: ConversationFacts, direct: boolean, threadId: string | undefined): Conversation {
  return {
    id: facts.id,
    kind: direct ? "direct" : "group",
    ...(!direct && facts.title ? { title: facts.title } : {}),
    ...(!direct && facts.members ? { members: facts.members } : {}),
    ...(threadId ? { threadId } : {}),
  };
}

function read<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
  throw new ChorusError("E_INVALID_INPUT", `unreadable ${what}: ${problems.join("; ")}`);
}
