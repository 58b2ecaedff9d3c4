import {
  ChorusError,
  type InboundMessageEvent,
  type InboundReactionEvent,
  mintRef,
  type RefScope,
  z,
} from "@chorus/core";
import { readMedium } from "./attachments.js";
import { messageRef, type ThreadKind } from "./refs.js";
import type { GroupFacts } from "./threads.js";
import { emojiOfIcon } from "./vocabulary.js";

/** Zalo ids arrive as strings, and as numbers (or big numbers) where its JSON says so: read both. */
const id = z
  .union([
    z.string().regex(/^\d+$/),
    z.number().int().nonnegative(),
    z.custom<{ toFixed(): string }>(
      (v) => typeof v === "object" && v !== null && typeof (v as { toFixed?: unknown }).toFixed === "function",
    ),
  ])
  .transform((v) => (typeof v === "object" ? v.toFixed() : String(v)));

/** `data` of a message from the listener (zca-js `TMessage` / `TGroupMessage`), as far as the channel reads it. */
const messageDataSchema = z.object({
  msgId: id,
  cliMsgId: id,
  msgType: z.string(),
  uidFrom: id,
  /** The group in a group's message; in a direct one the sender (`uidFrom`) is the thread, so it is not read. */
  idTo: id.optional(),
  dName: z.string().optional(),
  ts: id,
  ttl: z.number().optional(),
  content: z.union([z.string(), z.record(z.string(), z.unknown())]),
  mentions: z
    .array(
      z.object({ uid: z.union([id, z.literal("-1")]), pos: z.number(), len: z.number(), type: z.number().optional() }),
    )
    .nullish(),
  quote: z.object({ ownerId: id, globalMsgId: id, cliMsgId: id.optional(), msg: z.string().optional() }).nullish(),
});

/** `data` of a reaction (zca-js `TReaction`); `content` is already parsed from Zalo's JSON string. */
const reactionDataSchema = z.object({
  msgId: id,
  uidFrom: id,
  idTo: id.optional(),
  dName: z.string().optional(),
  ts: id,
  content: z.object({
    rMsg: z.array(z.object({ gMsgID: id, cMsgID: id, msgType: z.number().optional() })).min(1),
    rIcon: z.string(),
    rType: z.number(),
  }),
});

function read<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
  throw new ChorusError("E_INVALID_INPUT", `unreadable ${what}: ${problems.join("; ")}`);
}

/** The thread of a message or reaction: the group (`idTo`, which a group's must carry) or the person writing. */
function threadOf(data: { uidFrom: string; idTo?: string | undefined }, group: boolean, what: string): string {
  if (!group) return data.uidFrom;
  if (data.idTo === undefined)
    throw new ChorusError("E_INVALID_INPUT", `unreadable ${what}: idTo: required in a group`);
  return data.idTo;
}

/** A conversation as the events carry it: a group with what group info says, a person with their name. */
function conversationOf(threadId: string, group: boolean, dName: string | undefined, facts: GroupFacts | undefined) {
  return group
    ? { id: threadId, kind: "group" as const, ...(facts ? { title: facts.name, members: facts.members } : {}) }
    : { id: threadId, kind: "direct" as const, ...(dName ? { title: dName } : {}) };
}

/**
 * The text and attachments of a message: text as it is; a medium (photo, video, voice message, file,
 * sticker, location) as an attachment, its caption the text (or ""); other kinds (a link, a contact
 * card) by their title, else the kind.
 */
function bodyOf(content: string | Record<string, unknown>, msgType: string) {
  if (typeof content === "string") return { text: content, attachments: [] };
  const medium = readMedium(msgType, content);
  if (medium) return { text: medium.caption, attachments: medium.attachments };
  const title = [content.title, content.description, content.href].find((v) => typeof v === "string" && v !== "");
  return { text: title === undefined ? `[${msgType}]` : `[${msgType}] ${title as string}`, attachments: [] };
}

/**
 * A message from the listener as a normalised event (DESIGN §3); undefined for the bot's own.
 * `group` is what the group info API says about the group (name, members). Throws
 * `E_INVALID_INPUT` naming each field it cannot read.
 */
export function normalizeMessage(
  raw: unknown,
  kind: ThreadKind,
  scope: RefScope,
  group?: GroupFacts,
): InboundMessageEvent | undefined {
  const data = read(messageDataSchema, raw, "message");
  // zca-js drops the account's own messages (selfListen off); one that slips through is never answered.
  if (data.uidFrom === scope.botId || data.uidFrom === "0") return undefined;
  const threadId = threadOf(data, kind === "group", "message");
  const { text, attachments } = bodyOf(data.content, data.msgType);
  const mentioned = kind === "group" ? (data.mentions ?? []).map((m) => m.uid) : [];
  const quote = data.quote ?? undefined;
  const sender = { id: data.uidFrom, ...(data.dName ? { name: data.dName } : {}) };
  return {
    type: "message",
    // Zalo's global message id: a redelivered message carries the same one.
    eventId: `msg:${data.msgId}`,
    conversation: conversationOf(threadId, kind === "group", data.dName, group),
    sender,
    text,
    ...(attachments.length > 0 && { attachments }),
    // `-1` is @all: neither the bot named nor another person.
    mentions: {
      bot: mentioned.includes(scope.botId),
      others: mentioned.filter((uid) => uid !== scope.botId && uid !== "-1"),
    },
    ...(quote && {
      replyTo: {
        messageId: quote.globalMsgId,
        fromBot: quote.ownerId === scope.botId,
        senderId: quote.ownerId,
        ...(quote.msg ? { text: quote.msg } : {}),
      },
    }),
    ref: messageRef(scope, {
      msgId: data.msgId,
      cliMsgId: data.cliMsgId,
      threadId,
      threadKind: kind,
      uidFrom: data.uidFrom,
      ts: data.ts,
      msgType: data.msgType,
      text,
      ttl: data.ttl ?? 0,
    }),
    timestamp: Number(data.ts),
  };
}

/**
 * A reaction from the listener as a normalised event; undefined for the bot's own and for a
 * cleared reaction (`Reactions.NONE`: Zalo does not say which icon went). Throws `E_INVALID_INPUT`
 * naming each field it cannot read.
 */
export function normalizeReaction(
  raw: unknown,
  isGroup: boolean,
  scope: RefScope,
  group?: GroupFacts,
): InboundReactionEvent | undefined {
  const data = read(reactionDataSchema, raw, "reaction");
  if (data.uidFrom === scope.botId || data.uidFrom === "0") return undefined;
  if (data.content.rIcon === "" || data.content.rType === -1) return undefined;
  const threadId = threadOf(data, isGroup, "reaction");
  const target = data.content.rMsg[0] as { gMsgID: string; cMsgID: string };
  return {
    type: "reaction",
    eventId: `react:${data.msgId}`,
    conversation: conversationOf(threadId, isGroup, data.dName, group),
    target: mintRef(scope, {
      conversationId: threadId,
      messageId: target.gMsgID,
      data: { cliMsgId: target.cMsgID, threadKind: isGroup ? "group" : "user" },
    }),
    emoji: emojiOfIcon(data.content.rIcon),
    action: "added",
    actor: { id: data.uidFrom, ...(data.dName ? { name: data.dName } : {}) },
    timestamp: Number(data.ts),
  };
}
