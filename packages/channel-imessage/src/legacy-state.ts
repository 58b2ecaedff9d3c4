import { join } from "node:path";
import { BOT_REACTIONS_TTL_MS, BotReactionRecord } from "@chorus/channel-kit";
import { importLegacyFile } from "@chorus/channel-kit/state";
import type { ChannelStore, JsonValue, Logger } from "@chorus/core";
import { OWN_MESSAGES_TTL_MS, OwnMessages } from "./own-messages.js";
import { MIN_SECRET_LENGTH, WEBHOOK_SECRET_KEY } from "./secret.js";
import { isTapbackKind } from "./vocabulary.js";

/** The files channel-imessage 0.1 kept in `stateDir`, each named and shaped as it wrote them. */
export const LEGACY_FILES = {
  /** `{ "<chatGuid>/<messageGuid>": "<kind>" }`: the tapback the bot held on each message. */
  tapbacks: "tapbacks.json",
  /** `["<guid>", …]`: GUIDs of the bot's own messages. */
  ownMessages: "own-messages.json",
  /** `{ "secret": "<generated webhook secret>" }`. */
  webhookSecret: "webhook-secret.json",
} as const;

type Entries = Iterable<readonly [string, JsonValue]>;

/**
 * Moves what 0.1 kept in its own files into the store, once (each file is then renamed
 * `<file>.imported`; an unreadable one is set aside with a warning, and the channel starts).
 */
export async function importLegacyState(store: ChannelStore, logger: Logger, stateDir: string): Promise<void> {
  const file = (name: string) => join(stateDir, name);
  await importLegacyFile(store, logger, {
    file: file(LEGACY_FILES.tapbacks),
    entries: tapbackEntries,
    options: { ttlMs: BOT_REACTIONS_TTL_MS },
  });
  await importLegacyFile(store, logger, {
    file: file(LEGACY_FILES.ownMessages),
    entries: ownMessageEntries,
    options: { ttlMs: OWN_MESSAGES_TTL_MS },
  });
  await importLegacyFile(store, logger, { file: file(LEGACY_FILES.webhookSecret), entries: secretEntries });
}

function tapbackEntries(content: unknown): Entries {
  if (typeof content !== "object" || content === null || Array.isArray(content)) {
    throw new Error("expected an object of <chatGuid>/<messageGuid> → tapback kind");
  }
  const entries: [string, JsonValue][] = [];
  for (const [key, kind] of Object.entries(content)) {
    // Message GUIDs hold no "/", so the last one separates the chat from the message.
    const cut = key.lastIndexOf("/");
    if (cut <= 0 || typeof kind !== "string" || !isTapbackKind(kind)) continue;
    const target = { conversationId: key.slice(0, cut), messageId: key.slice(cut + 1) };
    entries.push([BotReactionRecord.key(target), [kind]]);
  }
  return entries;
}

function ownMessageEntries(content: unknown): Entries {
  if (!Array.isArray(content)) throw new Error("expected a list of message GUIDs");
  return content
    .filter((guid): guid is string => typeof guid === "string")
    .map((guid) => [OwnMessages.key(guid), true]);
}

function secretEntries(content: unknown): Entries {
  const secret = (content as { secret?: unknown } | null)?.secret;
  if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) {
    throw new Error(`expected { "secret": "<at least ${MIN_SECRET_LENGTH} characters>" }`);
  }
  return [[WEBHOOK_SECRET_KEY, secret]];
}
