import { ChorusError } from "@chorus/core";
import type { MessageRecord } from "./model.js";

/** Most distinct emoji one message can carry. */
export const MAX_EMOJI_PER_MESSAGE = 50;

/** Adds or removes `userId`'s `emoji` (already in stored form); false when nothing changed. */
export function setReaction(message: MessageRecord, emoji: string, userId: string, on: boolean): boolean {
  const users = message.reactions.get(emoji);
  if (!on) {
    if (!users?.includes(userId)) return false;
    removeReaction(message, emoji, userId);
    return true;
  }
  if (users?.includes(userId)) return false;
  if (users) {
    users.push(userId);
    return true;
  }
  if (message.reactions.size >= MAX_EMOJI_PER_MESSAGE) {
    throw new ChorusError("E_INVALID_INPUT", `message ${message.id} already has ${MAX_EMOJI_PER_MESSAGE} emoji`, {
      hint: "React with one of the emoji already on it.",
    });
  }
  message.reactions.set(emoji, [userId]);
  return true;
}

/** The emoji `userId` holds on a message, in the order they were first added to it. */
export function reactionsHeldBy(message: MessageRecord, userId: string): string[] {
  return [...message.reactions].filter(([, users]) => users.includes(userId)).map(([emoji]) => emoji);
}

/** Removes every reaction of `userId`; returns the emoji removed. */
export function clearReactionsOf(message: MessageRecord, userId: string): string[] {
  const removed = reactionsHeldBy(message, userId);
  for (const emoji of removed) removeReaction(message, emoji, userId);
  return removed;
}

function removeReaction(message: MessageRecord, emoji: string, userId: string): void {
  const remaining = (message.reactions.get(emoji) ?? []).filter((id) => id !== userId);
  if (remaining.length > 0) message.reactions.set(emoji, remaining);
  else message.reactions.delete(emoji);
}
