import { ChorusError, type MessageRef, mintRef, type Participant, type RefScope } from "@chorus/core";

/** Who the bot is on Signal: its number (the account) and, once known, its ACI uuid and profile name. */
export interface SignalBot {
  readonly number: string;
  readonly uuid?: string;
  readonly name?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NUMBER = /^\+\d{6,15}$/;

/** The bot's participant id: its uuid, else its number. */
export const botIdOf = (bot: SignalBot): string => bot.uuid ?? bot.number;

/** Whether an address (uuid or number, either may be missing) is the bot's own. */
export function isBotAddress(bot: SignalBot, uuid?: string | null, number?: string | null): boolean {
  return (uuid != null && uuid === bot.uuid) || (number != null && number === bot.number);
}

/** The bot as a participant: the owner writing from the phone is this too. */
export function botParticipant(bot: SignalBot): Participant {
  return { id: botIdOf(bot), ...(bot.name ? { name: bot.name } : {}), e164: bot.number };
}

/** A person: id is the uuid (stable across number changes), else the number. */
export function personOf(uuid?: string | null, number?: string | null, name?: string | null): Participant {
  const id = uuid ?? number ?? "";
  return { id, ...(name ? { name } : {}), ...(number ? { e164: number } : {}) };
}

/**
 * Whether a conversation id is a group: direct conversations are a person's uuid or number,
 * groups their base64 group id (which is neither).
 */
export function isGroupConversation(id: string): boolean {
  return !UUID.test(id) && !NUMBER.test(id);
}

/** The recipient params of a call into a conversation: `recipient` or `groupId`. */
export function recipientParams(conversationId: string): Record<string, unknown> {
  if (conversationId.trim() === "") throw new ChorusError("E_INVALID_INPUT", "a Signal conversation id is required");
  return isGroupConversation(conversationId) ? { groupId: conversationId } : { recipient: [conversationId] };
}

/**
 * The ref of a Signal message: the agent sees its sent timestamp; Signal finds it again by its
 * author (uuid or number) and that timestamp, both kept in `data`.
 */
export function signalRef(
  scope: RefScope,
  parts: { conversationId: string; timestamp: number; author: string; fromBot: boolean },
): MessageRef {
  return mintRef(scope, {
    conversationId: parts.conversationId,
    messageId: String(parts.timestamp),
    fromBot: parts.fromBot,
    data: { author: parts.author, timestamp: parts.timestamp },
  });
}

/** The author and timestamp a ref addresses; `E_MESSAGE_NOT_FOUND` when it cannot name both. */
export function addressOf(ref: MessageRef): { author: string; timestamp: number } {
  const author = ref.data?.author;
  const timestamp = ref.data?.timestamp ?? Number(ref.messageId);
  if (
    typeof author !== "string" ||
    author === "" ||
    typeof timestamp !== "number" ||
    !Number.isSafeInteger(timestamp)
  ) {
    throw new ChorusError(
      "E_MESSAGE_NOT_FOUND",
      `Signal message ${ref.messageId} cannot be addressed: its author is not known`,
      { hint: "Signal finds a message by author and sent timestamp; use the id of a message the gateway has seen." },
    );
  }
  return { author, timestamp };
}
