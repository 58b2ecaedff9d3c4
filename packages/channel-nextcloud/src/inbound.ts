import {
  type Conversation,
  type InboundMessageEvent,
  type InboundReactionEvent,
  mintRef,
  type Participant,
  type RefScope,
  type z,
} from "@chorus/core";
import { attachmentsOf } from "./attachments.js";
import { readNote } from "./note.js";
import {
  type TalkActor,
  type TalkCollection,
  talkActivitySchema,
  talkCreateSchema,
  talkLikeSchema,
  talkMembershipSchema,
  talkUndoSchema,
} from "./wire.js";

/** What normalizing needs besides the payload. */
export interface NormalizeContext {
  scope: RefScope;
  /** The bot's display name, for a typed `@<name>`. */
  botName?: string | undefined;
  /** Tokens configured as one-to-one conversations. */
  directConversations: readonly string[];
  /** `users/<files.user>`: the account the bot shares files as; what it posts is the bot's own. */
  filesActor?: string | undefined;
  now: number;
}

/** One reaction someone added or took back, as the hook states it (it carries no id or time of its own). */
export interface ReactionOccurrence {
  action: "added" | "removed";
  conversationId: string;
  messageId: string;
  actorId: string;
  emoji: string;
}

/** What a verified webhook body is. */
export type NormalizedHook =
  /** A person's message; `problems` name what could not be read but did not stop it. */
  | { kind: "message"; event: InboundMessageEvent; problems: string[] }
  /** A reaction; the event gets its id from the occurrence (see `ReactionEventIds`). */
  | { kind: "reaction"; event: Omit<InboundReactionEvent, "eventId">; occurrence: ReactionOccurrence }
  | { kind: "membership"; type: "Join" | "Leave"; botId: string; botName: string; conversation: TalkCollection }
  /** Read, and deliberately not an event (the bot's own, a system message, an unknown activity). */
  | { kind: "ignored"; reason: string }
  /** Not what Talk sends: each problem names a field path and what is wrong with it. */
  | { kind: "unreadable"; problems: string[] };

/** Turns a verified webhook body into a normalized event, or says why it is none. */
export function normalizeHook(body: unknown, ctx: NormalizeContext): NormalizedHook {
  const type = (body as { type?: unknown } | null)?.type;
  if (typeof type !== "string")
    return { kind: "unreadable", problems: ["type: expected the activity type (Create, Like, …)"] };
  switch (type) {
    case "Create":
      return normalizeCreate(body, ctx);
    case "Like":
    case "Undo":
      return normalizeReaction(type, body, ctx);
    case "Join":
    case "Leave": {
      const parsed = talkMembershipSchema.safeParse(body);
      if (!parsed.success) return unreadable(parsed.error);
      const { actor, object } = parsed.data;
      return { kind: "membership", type: parsed.data.type, botId: actor.id, botName: actor.name, conversation: object };
    }
    case "Activity":
      return normalizeActivity(body, ctx);
    default:
      return { kind: "ignored", reason: `an activity of type "${type}" this plugin does not handle` };
  }
}

function normalizeCreate(body: unknown, ctx: NormalizeContext): NormalizedHook {
  const parsed = talkCreateSchema.safeParse(body);
  if (!parsed.success) return unreadable(parsed.error);
  // `message` for written messages; Talk 21–22 sent "" for messages with attachments.
  const name = parsed.data.object.name;
  if (name !== "message" && name !== "") {
    return { kind: "ignored", reason: `not a chat message (object.name "${name}")` };
  }
  return normalizeMessage(parsed.data, ctx);
}

/**
 * A system message; a shared file or location (`file_shared`, `object_shared`, or "" as Talk
 * 21–22 named messages with attachments) whose content carries one is a message, the rest is not.
 */
function normalizeActivity(body: unknown, ctx: NormalizeContext): NormalizedHook {
  const ignored: NormalizedHook = { kind: "ignored", reason: `a system message (${systemMessageName(body)})` };
  const parsed = talkActivitySchema.safeParse(body);
  if (!parsed.success || !SHARES.has(parsed.data.object.name)) return ignored;
  const note = readNote(parsed.data.object, { botId: ctx.scope.botId });
  return attachmentsOf(note.parameters).length > 0 ? normalizeMessage(parsed.data, ctx) : ignored;
}

/** `object.name` of a system message that may be a shared file or location. */
const SHARES = new Set(["", "message", "file_shared", "object_shared"]);

function normalizeMessage(
  data: z.output<typeof talkCreateSchema> | z.output<typeof talkActivitySchema>,
  ctx: NormalizeContext,
): NormalizedHook {
  const { actor, object, target } = data;
  // Talk sends no hooks for bots' messages ("no bots for bots"); an own echo is still never answered.
  if (actor.id === ctx.scope.botId) return { kind: "ignored", reason: "the bot's own message" };
  // What the bot shared as its files user comes back as that user's message.
  if (ctx.filesActor !== undefined && actor.id === ctx.filesActor) {
    return { kind: "ignored", reason: "a message of the bot's files user (the bot's own)" };
  }
  const bot = { botId: ctx.scope.botId, botName: ctx.botName };
  const note = readNote(object, bot);
  const problems = note.problem ? [`object.content: ${note.problem}`] : [];
  const attachments = attachmentsOf(note.parameters);
  const reply = object.inReplyTo;
  const event: InboundMessageEvent = {
    type: "message",
    eventId: `create:${target.id}:${object.id}`,
    conversation: conversationOf(target, ctx.directConversations),
    sender: participant(actor),
    text: note.text,
    mentions: note.mentions,
    ...(attachments.length > 0 ? { attachments } : {}),
    ...(reply
      ? {
          replyTo: {
            messageId: reply.object.id,
            fromBot: reply.actor.id === ctx.scope.botId,
            senderId: reply.actor.id,
            text: quoted(readNote(reply.object, bot)),
          },
        }
      : {}),
    ref: mintRef(ctx.scope, { conversationId: target.id, messageId: object.id, fromBot: false }),
    timestamp: ctx.now,
  };
  return { kind: "message", event, problems };
}

/** A quoted message's text; a shared file or location alone by its name (`[file plan.pdf]`). */
function quoted(note: ReturnType<typeof readNote>): string {
  if (note.text !== "") return note.text;
  return attachmentsOf(note.parameters)
    .map((a) => {
      const name = a.filename ?? a.location?.name;
      return `[${a.kind === "location" ? "location" : "file"}${name ? ` ${name}` : ""}]`;
    })
    .join(" ");
}

function normalizeReaction(type: "Like" | "Undo", body: unknown, ctx: NormalizeContext): NormalizedHook {
  const parsed = type === "Like" ? talkLikeSchema.safeParse(body) : talkUndoSchema.safeParse(body);
  if (!parsed.success) return unreadable(parsed.error);
  const { actor, target } = parsed.data;
  const like = parsed.data.type === "Undo" ? parsed.data.object : parsed.data;
  if (actor.id === ctx.scope.botId) return { kind: "ignored", reason: "the bot's own reaction" };
  const action = type === "Like" ? "added" : "removed";
  return {
    kind: "reaction",
    event: {
      type: "reaction",
      conversation: conversationOf(target, ctx.directConversations),
      // Talk does not say who wrote the message reacted to, so the ref leaves fromBot open.
      target: mintRef(ctx.scope, { conversationId: target.id, messageId: like.object.id }),
      emoji: like.content,
      action,
      actor: participant(actor),
      timestamp: ctx.now,
    },
    occurrence: {
      action,
      conversationId: target.id,
      messageId: like.object.id,
      actorId: actor.id,
      emoji: like.content,
    },
  };
}

/**
 * Direct or group, from what the payload allows: Talk names a one-to-one conversation with the
 * JSON list of its two user ids (`["ada","bob"]`), every other conversation with its title.
 */
export function conversationOf(target: TalkCollection, directTokens: readonly string[]): Conversation {
  if (directTokens.includes(target.id) || isOneToOneName(target.name)) return { id: target.id, kind: "direct" };
  return { id: target.id, kind: "group", ...(target.name !== "" ? { title: target.name } : {}) };
}

function isOneToOneName(name: string): boolean {
  if (!name.startsWith("[")) return false;
  try {
    const users = JSON.parse(name) as unknown;
    return Array.isArray(users) && users.length === 2 && users.every((u) => typeof u === "string");
  } catch {
    return false;
  }
}

function participant(actor: TalkActor): Participant {
  return { id: actor.id, name: actor.name, ...(actor.id.startsWith("bots/") ? { isBot: true } : {}) };
}

function systemMessageName(body: unknown): string {
  const name = (body as { object?: { name?: unknown } }).object?.name;
  return typeof name === "string" && name !== "" ? name : "unnamed";
}

function unreadable(error: z.ZodError): NormalizedHook {
  return {
    kind: "unreadable",
    problems: error.issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`),
  };
}
