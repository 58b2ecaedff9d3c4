import { join } from "node:path";
import { BOT_REACTIONS_TTL_MS, BotReactionRecord } from "@chorus/channel-kit";
import { importLegacyFile } from "@chorus/channel-kit/state";
import type { ChannelStore, JsonValue, Logger } from "@chorus/core";
import { IDENTITY_KEY, learnedIdentity } from "./identity.js";

/** What version 0.1 learned from a `Join` hook: `{"botId":"bots/bot-…","name":"…"}`. */
export const LEGACY_IDENTITY_FILE = "identity.json";
/** The reactions version 0.1 set: `{"<token>/<messageId>":["👍",…],…}`. */
export const LEGACY_REACTIONS_FILE = "reactions.json";

/**
 * Moves what version 0.1 kept in `stateDir` into the store, once: each file is renamed
 * `<file>.imported` afterwards, and one that cannot be read is set aside with a warning.
 */
export async function importLegacyState(store: ChannelStore, logger: Logger, stateDir: string): Promise<void> {
  await importLegacyFile(store, logger, { file: join(stateDir, LEGACY_IDENTITY_FILE), entries: identityEntries });
  await importLegacyFile(store, logger, {
    file: join(stateDir, LEGACY_REACTIONS_FILE),
    entries: reactionEntries,
    options: { ttlMs: BOT_REACTIONS_TTL_MS },
  });
}

function identityEntries(content: unknown): [string, JsonValue][] {
  if (!isRecord(content)) throw new Error("not a JSON object");
  const learned = learnedIdentity(content);
  if (learned.botId === undefined && learned.name === undefined) return [];
  return [[IDENTITY_KEY, { botId: learned.botId ?? "", name: learned.name ?? "" }]];
}

function* reactionEntries(content: unknown): Generator<[string, JsonValue]> {
  if (!isRecord(content)) throw new Error("not a JSON object");
  for (const [key, value] of Object.entries(content)) {
    // Talk tokens and message ids hold no "/", so the last one separates them.
    const slash = key.lastIndexOf("/");
    if (slash <= 0 || !Array.isArray(value)) continue;
    const emoji = value.filter((item): item is string => typeof item === "string");
    if (emoji.length === 0) continue;
    const target = { conversationId: key.slice(0, slash), messageId: key.slice(slash + 1) };
    yield [BotReactionRecord.key(target), emoji];
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
