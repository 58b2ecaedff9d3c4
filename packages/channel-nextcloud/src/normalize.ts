import type { Conversation, InboundEvent, MentionFacts, Participant } from "@chorus/core";
import { type Identity, talkMessageRef } from "./identity.js";
import {
  noteContentSchema,
  type RichParameter,
  richParameterSchema,
  type TalkActor,
  type TalkCollection,
  type TalkNote,
  talkCreateSchema,
  talkLikeSchema,
  talkUndoSchema,
} from "./wire.js";

/** What normalisation needs besides the payload. */
export interface NormalizeContext {
  who: Identity;
  /** Tokens configured as one-to-one conversations. */
  directConversations: readonly string[];
  /** The delivery's random: unique per delivery, part of reaction event ids. */
  random: string;
  now: number;
}

/** Mention parameter types that name one actor, and the actor type Talk prefixes its id with. */
const ACTOR_PREFIX: Record<string, string> = {
  user: "users",
  guest: "guests",
  email: "emails",
  "federated-user": "federated_users",
  federated_user: "federated_users",
  "user-group": "groups",
  group: "groups",
  circle: "circles",
  team: "teams",
  bot: "bots",
};

/** A verified webhook body as a normalised event; undefined for the bot's own and for non-chat hooks. */
export function toInboundEvent(body: unknown, ctx: NormalizeContext): InboundEvent | undefined {
  const type = (body as { type?: unknown } | null)?.type;
  if (type === "Create") {
    const parsed = talkCreateSchema.safeParse(body);
    if (!parsed.success) return undefined;
    const { actor, object, target } = parsed.data;
    // Talk sends no hooks for bots' messages ("no bots for bots"); an own echo is still never answered.
    if (actor.id === ctx.who.botId || object.name !== "message") return undefined;
    const { text, mentions } = readNote(object, ctx.who);
    const reply = object.inReplyTo;
    return {
      type: "message",
      eventId: `create:${target.id}:${object.id}`,
      conversation: conversationOf(target, ctx.directConversations),
      sender: participant(actor),
      text,
      mentions,
      ...(reply
        ? {
            replyTo: {
              messageId: reply.object.id,
              fromBot: reply.actor.id === ctx.who.botId,
              senderId: reply.actor.id,
              text: readNote(reply.object, ctx.who).text,
            },
          }
        : {}),
      ref: talkMessageRef({ id: object.id, token: target.id, fromBot: false }, ctx.who),
      timestamp: ctx.now,
    };
  }
  if (type === "Like" || type === "Undo") {
    const parsed = type === "Like" ? likeOf(body) : undoOf(body);
    if (!parsed) return undefined;
    const { actor, target, liked } = parsed;
    if (actor.id === ctx.who.botId) return undefined;
    return {
      type: "reaction",
      eventId: `${type.toLowerCase()}:${target.id}:${liked.object.id}:${ctx.random}`,
      conversation: conversationOf(target, ctx.directConversations),
      // Talk does not say who wrote the message reacted to; a reaction hook is for a user message.
      target: talkMessageRef({ id: liked.object.id, token: target.id, fromBot: false }, ctx.who),
      emoji: liked.content,
      action: type === "Like" ? "added" : "removed",
      actor: participant(actor),
      timestamp: ctx.now,
    };
  }
  return undefined;
}

function likeOf(body: unknown) {
  const like = talkLikeSchema.safeParse(body);
  return like.success ? { actor: like.data.actor, target: like.data.target, liked: like.data } : undefined;
}

function undoOf(body: unknown) {
  const undo = talkUndoSchema.safeParse(body);
  return undo.success ? { actor: undo.data.actor, target: undo.data.target, liked: undo.data.object } : undefined;
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

/** A message's text with `{placeholders}` resolved, and the mention facts its parameters state. */
export function readNote(note: TalkNote, who: Identity): { text: string; mentions: MentionFacts } {
  let content: ReturnType<typeof noteContentSchema.parse>;
  try {
    content = noteContentSchema.parse(JSON.parse(note.content));
  } catch {
    return { text: note.content, mentions: { bot: false, others: [] } };
  }
  const parameters = new Map<string, RichParameter>();
  for (const [key, value] of Object.entries(content.parameters)) {
    const parsed = richParameterSchema.safeParse(value);
    if (parsed.success) parameters.set(key, parsed.data);
  }
  let bot = false;
  const others: string[] = [];
  for (const [key, parameter] of parameters) {
    if (!key.startsWith("mention-") || parameter.type === "call") continue; // `call` is @all
    const id = actorIdOf(parameter);
    if (id === who.botId) bot = true;
    else if (!others.includes(id)) others.push(id);
  }
  const text = content.message.replace(/\{([a-z0-9_-]+)\}/giu, (whole, key: string) => {
    const parameter = parameters.get(key);
    if (!parameter) return whole;
    return key.startsWith("mention-") ? `@${parameter.name || parameter.id}` : parameter.name || whole;
  });
  // Talk offers no bot in its @-autocomplete: "@<bot name>" typed by hand stays plain text.
  if (!bot && who.botName && mentionsByName(content.message, who.botName)) bot = true;
  return { text, mentions: { bot, others } };
}

function actorIdOf(parameter: RichParameter): string {
  if (parameter.id.includes("/")) return parameter.id;
  const prefix = ACTOR_PREFIX[parameter.type];
  return prefix ? `${prefix}/${parameter.id}` : parameter.id;
}

function mentionsByName(message: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
  return new RegExp(`(^|[^\\p{L}\\p{N}_])@"?${escaped}"?(?![\\p{L}\\p{N}_])`, "iu").test(message);
}

function participant(actor: TalkActor): Participant {
  return { id: actor.id, name: actor.name, ...(actor.id.startsWith("bots/") ? { isBot: true } : {}) };
}
