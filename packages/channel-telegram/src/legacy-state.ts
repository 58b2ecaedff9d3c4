import { join } from "node:path";
import { BOT_REACTIONS_TTL_MS, BotReactionRecord } from "@chorus/channel-kit";
import { importLegacyFile } from "@chorus/channel-kit/state";
import type { ChannelStore, JsonValue, Logger } from "@chorus/core";
import { ChatAliases } from "./chat-aliases.js";

/** Where 0.1 kept the bot reaction record in `stateDir`: `{reactions: {"<chatId>:<messageId>": string[]}}`. */
export const LEGACY_REACTIONS_FILE = "bot-reactions.json";
/** Where 0.1 kept group migrations in `stateDir`: `{migrated: {"<old chat id>": "<new chat id>"}}`. */
export const LEGACY_MIGRATIONS_FILE = "chat-migrations.json";

type Entry = readonly [string, JsonValue];

/**
 * Moves what version 0.1 kept in its own files in `stateDir` into the store, once (each file is
 * renamed `<file>.imported` afterwards; an unreadable one is set aside with a warning).
 */
export async function importLegacyState(store: ChannelStore, logger: Logger, stateDir: string): Promise<void> {
  await importLegacyFile(store, logger, {
    file: join(stateDir, LEGACY_REACTIONS_FILE),
    entries: reactionEntries,
    options: { ttlMs: BOT_REACTIONS_TTL_MS },
  });
  await importLegacyFile(store, logger, { file: join(stateDir, LEGACY_MIGRATIONS_FILE), entries: migrationEntries });
}

/** `{reactions: {"-1001:42": ["👍"]}}` → the bot reaction record of message 42 in chat -1001. */
function reactionEntries(content: unknown): Entry[] {
  return Object.entries(section(content, "reactions")).flatMap(([key, held]): Entry[] => {
    const address = /^(-?\d+):(\d+)$/.exec(key);
    if (!address || !isStringList(held))
      throw new Error(`"${key}" is not <chatId>:<messageId> with a list of reactions`);
    const target = { conversationId: address[1] as string, messageId: address[2] as string };
    return held.length === 0 ? [] : [[BotReactionRecord.key(target), held]];
  });
}

/** `{migrated: {"-42": "-1009"}}` → chat -42 became chat -1009. */
function migrationEntries(content: unknown): Entry[] {
  return Object.entries(section(content, "migrated")).map(([from, to]): Entry => {
    if (!/^-?\d+$/.test(from) || typeof to !== "string" || !/^-?\d+$/.test(to)) {
      throw new Error(`"${from}" → ${JSON.stringify(to)} is not a migration between two chat ids`);
    }
    return [ChatAliases.key(from), to];
  });
}

function section(content: unknown, name: string): Record<string, unknown> {
  const value = (content as Record<string, unknown> | null)?.[name];
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`no "${name}" object`);
  return value as Record<string, unknown>;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}
