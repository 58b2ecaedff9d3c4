import { BoundedMap } from "@chorus/channel-kit";
import type { InboundReactionEvent } from "@chorus/core";
import { isJidGroup, jidNormalizedUser, type proto, type WAMessageKey } from "@whiskeysockets/baileys";
import { ignoredChat, isBotJid } from "../jids.js";
import { whatsappMessageRef } from "../ref.js";
import type { InboundContext } from "./message.js";
import { membersOf, participantOf } from "./participants.js";
import { millisOf } from "./time.js";

/** One entry of Baileys' `messages.reaction`: the target message's key and the reaction. */
export interface ReactionUpdate {
  readonly key: WAMessageKey;
  readonly reaction: proto.IReaction & { key?: WAMessageKey | null };
}

/** A reaction as an event, or why it is no input. */
export type NormalizedReaction = { readonly event: InboundReactionEvent } | { readonly dropped: string };

/** People's reactions remembered, so that a removal can name the emoji that went away. */
const REMEMBERED = 5_000;

/**
 * The emoji each person last put on each message, and when. WhatsApp's removal is an empty
 * reaction that does not say what was removed; this memory names it when the reaction was seen
 * (in this run). The time tells a late delivery: Baileys may hand over a person's reactions out
 * of order (while it stores a new LID mapping), and an older one must not undo a newer one.
 */
export class ReactionMemory {
  readonly #held = new BoundedMap<string, { emoji: string; at: number | undefined }>(REMEMBERED);

  /** Whether a reaction `actor` made at `at` is older than the last one seen from them on the message. */
  isStale(remoteJid: string, messageId: string, actor: string, at: number | undefined): boolean {
    const last = this.#held.get(keyOf(remoteJid, messageId, actor))?.at;
    return at !== undefined && last !== undefined && at < last;
  }

  /** The emoji `actor` held on the message before, and records what they hold now ("" for nothing). */
  swap(remoteJid: string, messageId: string, actor: string, emoji: string, at?: number): string | undefined {
    const key = keyOf(remoteJid, messageId, actor);
    const before = this.#held.get(key)?.emoji;
    this.#held.set(key, { emoji, at });
    return before === "" ? undefined : before;
  }
}

function keyOf(remoteJid: string, messageId: string, actor: string): string {
  return `${remoteJid}\n${messageId}\n${actor}`;
}

/**
 * Turns one `messages.reaction` entry into a reaction event: `added` with the emoji, or
 * `removed` with the emoji that person held when this instance saw it (else `""`: WhatsApp does
 * not say). The bot's own reactions are dropped (`fromMe`, or the reactor is the bot's PN/LID), and
 * so is a reaction older than one the same person already made on the message.
 */
export function normalizeReactionUpdate(
  update: ReactionUpdate,
  ctx: InboundContext,
  memory: ReactionMemory,
): NormalizedReaction {
  const target = update.key;
  const own = update.reaction.key;
  const remoteJid = jidNormalizedUser(target.remoteJid ?? own?.remoteJid ?? "");
  if (remoteJid === "" || !target.id) return { dropped: "no target message" };
  const ignored = ignoredChat(remoteJid);
  if (ignored) return { dropped: ignored };
  const group = isJidGroup(remoteJid) === true;
  const reactorJid = group ? own?.participant : (own?.remoteJid ?? remoteJid);
  if (own?.fromMe || isBotJid(reactorJid, ctx.who)) return { dropped: "the bot's own reaction" };
  if (!reactorJid) return { dropped: "no reactor" };
  const actor = participantOf(reactorJid, ctx, { alt: group ? own?.participantAlt : own?.remoteJidAlt });
  const emoji = update.reaction.text ?? "";
  const at = millisOf(update.reaction.senderTimestampMs, 1);
  if (memory.isStale(remoteJid, target.id, actor.id, at)) {
    return { dropped: "older than a reaction of the same person already seen (delivered out of order)" };
  }
  const before = memory.swap(remoteJid, target.id, actor.id, emoji, at);
  const targetParticipant = target.participant ? jidNormalizedUser(target.participant) : undefined;
  const targetFromMe = target.fromMe === true || isBotJid(targetParticipant, ctx.who);
  const members = group ? membersOf(ctx) : undefined;
  const title = group ? ctx.group?.subject : actor.name;
  return {
    event: {
      type: "reaction",
      eventId: `wa:${remoteJid}:${own?.id ?? `${target.id}:${actor.id}:${update.reaction.senderTimestampMs ?? ""}`}`,
      conversation: {
        id: remoteJid,
        kind: group ? "group" : "direct",
        ...(title ? { title } : {}),
        ...(members ? { members } : {}),
      },
      target: whatsappMessageRef(
        ctx.who,
        {
          remoteJid,
          id: target.id,
          fromMe: targetFromMe,
          ...(group && targetParticipant ? { participant: targetParticipant } : {}),
        },
        targetFromMe || ctx.sentByBot(target.id),
      ),
      emoji: emoji === "" ? (before ?? "") : emoji,
      action: emoji === "" ? "removed" : "added",
      actor,
      timestamp: at ?? Date.now(),
    },
  };
}
