import {
  ChorusError,
  type Conversation,
  type InboundEvent,
  type InboundMessageEvent,
  type Participant,
  type RefScope,
  type ReplyContext,
} from "@chorus/core";
import { attachmentsOf, captionsOf } from "./attachments.js";
import { resolveMentions } from "./mentions.js";
import { botParticipant, isBotAddress, personOf, type SignalBot, signalRef } from "./refs.js";
import * as wire from "./wire.js";

/** What the normaliser knows besides the event: who the bot is, the group's members, names seen before. */
export interface InboundContext {
  readonly scope: RefScope;
  readonly bot: SignalBot;
  /** The group the message is in, as `listGroups` tells it (undefined when unknown or direct). */
  readonly group?: wire.SignalGroup;
  /** A display name learned earlier for a uuid or number. */
  nameOf(id: string): string | undefined;
}

/** An event for the gateway, or why the envelope is none (typing, receipts, the bot's own echoes …). */
export type Normalized = { readonly event: InboundEvent } | { readonly ignored: string };

/** Parses the `data` of a `receive` event; `E_INVALID_INPUT` naming each field it cannot read. */
export function parseReceive(data: string): wire.SignalReceiveEvent {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch (error) {
    throw new ChorusError("E_INVALID_INPUT", `unreadable receive event: not JSON (${(error as Error).message})`);
  }
  const parsed = wire.receiveEventSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
  throw new ChorusError("E_INVALID_INPUT", `unreadable receive event: ${problems.join("; ")}`);
}

/** The group a received message or reaction belongs to, to look it up before normalising. */
export function groupIdOf(event: wire.SignalReceiveEvent): string | undefined {
  const envelope = event.envelope;
  return (envelope?.dataMessage ?? envelope?.syncMessage?.sentMessage)?.groupInfo?.groupId;
}

/**
 * Turns one received envelope into a normalised event (DESIGN §3). People's messages and
 * reactions are input; so is what the owner writes from the phone (`syncMessage.sentMessage`) in
 * a group or to themselves. A message's files and sticker are its attachments (it may be only
 * those, its text empty). Typing, receipts, calls, stories, edits, deletions, group updates and
 * the bot's own reactions are not input. A redelivery carries the same author and timestamp, so
 * the same `eventId`: the gateway drops the repeat.
 */
export function normalizeReceive(event: wire.SignalReceiveEvent, ctx: InboundContext): Normalized {
  const envelope = event.envelope;
  if (!envelope) return { ignored: "no envelope" };
  const sent = envelope.syncMessage?.sentMessage;
  if (sent) return fromThePhone(sent, ctx);
  const data = envelope.dataMessage;
  if (!data) return { ignored: `not a message (${kindOf(envelope)})` };
  if (isBotAddress(ctx.bot, envelope.sourceUuid, envelope.sourceNumber)) return { ignored: "the bot's own message" };
  const sender = personOf(envelope.sourceUuid, envelope.sourceNumber, envelope.sourceName);
  if (sender.id === "") return { ignored: "no sender" };
  const conversation = data.groupInfo
    ? groupConversation(data.groupInfo, ctx)
    : { id: sender.id, kind: "direct" as const, ...(sender.name ? { title: sender.name } : {}) };
  if (data.reaction) return reactionEvent(data.reaction, envelope.timestamp, conversation, sender, ctx);
  return messageEvent(data, conversation, sender, ctx);
}

/** The owner wrote on the phone the bot's number lives on: input in groups and in Note to Self only. */
function fromThePhone(sent: wire.SignalSentMessage, ctx: InboundContext): Normalized {
  const owner = botParticipant(ctx.bot);
  if (sent.reaction) return { ignored: "the owner's reaction from the phone" };
  if (sent.groupInfo) return messageEvent(sent, groupConversation(sent.groupInfo, ctx), owner, ctx);
  if (isBotAddress(ctx.bot, sent.destinationUuid, sent.destinationNumber)) {
    return messageEvent(sent, { id: owner.id, kind: "direct", title: "Note to Self" }, owner, ctx);
  }
  return { ignored: "the owner's own message to someone else" };
}

function messageEvent(
  data: wire.SignalDataMessage,
  conversation: Conversation,
  sender: Participant,
  ctx: InboundContext,
): Normalized {
  if (data.groupInfo?.type === "UPDATE") return { ignored: "a group update" };
  if (data.remoteDelete !== undefined) return { ignored: "a deletion" };
  const said = textOf(data, ctx);
  const attachments = attachmentsOf(data, {
    sender: sender.id,
    ...(conversation.kind === "group" ? { groupId: conversation.id } : {}),
  });
  if (said === "" && attachments.length === 0) return { ignored: "nothing said or attached (an expiration update?)" };
  const mentioned = data.mentions ?? [];
  const bot = mentioned.some((m) => isBotAddress(ctx.bot, m.uuid, m.number));
  const others = mentioned
    .filter((m) => !isBotAddress(ctx.bot, m.uuid, m.number))
    .map((m) => m.uuid ?? m.number ?? m.name ?? "")
    .filter((id) => id !== "");
  const fromOwner = sender.id === botParticipant(ctx.bot).id;
  const event: InboundMessageEvent = {
    type: "message",
    eventId: `${sender.id}:${data.timestamp}`,
    conversation,
    sender,
    text: said,
    ...(attachments.length > 0 ? { attachments } : {}),
    mentions: { bot, others: [...new Set(others)] },
    ...(data.quote ? { replyTo: replyOf(data.quote, ctx) } : {}),
    ref: signalRef(ctx.scope, {
      conversationId: conversation.id,
      timestamp: data.timestamp,
      // The owner's messages are the account's: Signal addresses them by its number.
      author: fromOwner ? ctx.bot.number : sender.id,
      fromBot: false,
    }),
    timestamp: data.timestamp,
  };
  return { event };
}

function reactionEvent(
  reaction: NonNullable<wire.SignalDataMessage["reaction"]>,
  timestamp: number,
  conversation: Conversation,
  actor: Participant,
  ctx: InboundContext,
): Normalized {
  const author = reaction.targetAuthorUuid ?? reaction.targetAuthorNumber ?? reaction.targetAuthor ?? "";
  const fromBot = isBotAddress(
    ctx.bot,
    reaction.targetAuthorUuid,
    reaction.targetAuthorNumber ?? reaction.targetAuthor,
  );
  return {
    event: {
      type: "reaction",
      eventId: `${actor.id}:${timestamp}`,
      conversation,
      target: signalRef(ctx.scope, {
        conversationId: conversation.id,
        timestamp: reaction.targetSentTimestamp,
        author: fromBot ? ctx.bot.number : author,
        fromBot,
      }),
      emoji: reaction.emoji,
      action: reaction.isRemove ? "removed" : "added",
      actor,
      timestamp,
    },
  };
}

/** The body with mentions resolved; where it is empty, the captions on its files ("" when nothing is said). */
function textOf(data: wire.SignalDataMessage, ctx: InboundContext): string {
  const text = resolveMentions(data.message ?? "", data.mentions ?? [], (m) => labelOf(m, ctx));
  return text.trim() !== "" ? text : captionsOf(data).join("\n");
}

function labelOf(mention: wire.SignalMention, ctx: InboundContext): string {
  if (isBotAddress(ctx.bot, mention.uuid, mention.number)) return ctx.bot.name ?? ctx.bot.number;
  const id = mention.uuid ?? mention.number ?? mention.name ?? "";
  return ctx.nameOf(id) ?? mention.number ?? mention.name ?? id;
}

function replyOf(quote: NonNullable<wire.SignalDataMessage["quote"]>, ctx: InboundContext): ReplyContext {
  const senderId = quote.authorUuid ?? quote.authorNumber ?? quote.author ?? undefined;
  return {
    messageId: String(quote.id),
    fromBot: isBotAddress(ctx.bot, quote.authorUuid, quote.authorNumber ?? quote.author),
    ...(quote.text ? { text: quote.text } : {}),
    ...(senderId ? { senderId } : {}),
  };
}

function groupConversation(info: NonNullable<wire.SignalDataMessage["groupInfo"]>, ctx: InboundContext): Conversation {
  const group = ctx.group?.id === info.groupId ? ctx.group : undefined;
  const title = group?.name ?? info.groupName ?? undefined;
  const members = group?.members.map((member): Participant => {
    if (isBotAddress(ctx.bot, member.uuid, member.number)) return { ...botParticipant(ctx.bot), isBot: true };
    const id = member.uuid ?? member.number ?? "";
    return personOf(member.uuid, member.number, ctx.nameOf(id));
  });
  return { id: info.groupId, kind: "group", ...(title ? { title } : {}), ...(members ? { members } : {}) };
}

function kindOf(envelope: wire.SignalEnvelope): string {
  const kinds = ["typingMessage", "receiptMessage", "callMessage", "storyMessage", "editMessage", "syncMessage"];
  return kinds.find((kind) => envelope[kind as keyof wire.SignalEnvelope] !== undefined) ?? "empty envelope";
}
