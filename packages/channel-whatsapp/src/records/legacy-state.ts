import { join } from "node:path";
import { BOT_REACTIONS_TTL_MS, BotReactionRecord } from "@chorus/channel-kit";
import { importLegacyFile } from "@chorus/channel-kit/state";
import type { ChannelStore, JsonValue, Logger } from "@chorus/core";
import { MESSAGE_LOG_TTL_MS, MessageLog, readLogged } from "./message-log.js";

/** What versions up to 0.1 kept in `stateDir` besides the auth directory. */
export const LEGACY_FILES = {
  /** `{ "<chat JID>\n<message id>": "<emoji>" }`: the bot's reaction per message. */
  botReactions: "bot-reactions.json",
  /** `[{ remoteJid, id, fromMe, participant?, fromBot, text? }, …]`: messages seen and sent, oldest first. */
  messages: "messages.json",
} as const;

/**
 * Moves what an earlier version kept in its own files in `stateDir` into the store, once (each
 * file is renamed `<file>.imported` afterwards; an unreadable one is set aside with a warning).
 */
export async function importLegacyState(store: ChannelStore, logger: Logger, stateDir: string): Promise<void> {
  await importLegacyFile(store, logger, {
    file: join(stateDir, LEGACY_FILES.botReactions),
    entries: botReactionEntries,
    options: { ttlMs: BOT_REACTIONS_TTL_MS },
  });
  await importLegacyFile(store, logger, {
    file: join(stateDir, LEGACY_FILES.messages),
    entries: messageEntries,
    options: { ttlMs: MESSAGE_LOG_TTL_MS },
  });
}

function* botReactionEntries(content: unknown): Iterable<readonly [string, JsonValue]> {
  if (typeof content !== "object" || content === null || Array.isArray(content)) {
    throw new Error("not an object of message keys and emoji");
  }
  for (const [key, emoji] of Object.entries(content)) {
    const split = key.indexOf("\n");
    if (split <= 0 || typeof emoji !== "string" || emoji === "") continue;
    const target = { conversationId: key.slice(0, split), messageId: key.slice(split + 1) };
    yield [BotReactionRecord.key(target), [emoji]];
  }
}

function* messageEntries(content: unknown): Iterable<readonly [string, JsonValue]> {
  if (!Array.isArray(content)) throw new Error("not a list of messages");
  for (const item of content) {
    const message = readLogged(item);
    if (message) yield [MessageLog.key(message.remoteJid, message.id), message as unknown as JsonValue];
  }
}
