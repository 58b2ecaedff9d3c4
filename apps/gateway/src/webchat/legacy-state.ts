import { join } from "node:path";
import { importLegacyFile } from "@chorus/channel-kit/state";
import { type ChannelStore, type JsonValue, type Logger, z } from "@chorus/core";
import { json, messageKey, reactionsKey, roomKey, userKey } from "./stored.js";

/** The file in the webchat's state directory where versions before the store kept everything. */
export const LEGACY_STATE_FILE = "webchat.json";

const legacyMessage = z
  .object({
    id: z.string().min(1),
    senderId: z.string().min(1),
    senderName: z.string(),
    text: z.string(),
    ts: z.number(),
    replyTo: z.string().optional(),
    mentions: z.array(z.string()),
    reactions: z.array(z.tuple([z.string().min(1), z.array(z.string().min(1))])),
  })
  .strict();

/** `webchat.json` as version 1 wrote it: people, rooms, messages and reactions in one document. */
const legacyStateSchema = z
  .object({
    version: z.literal(1),
    users: z.array(z.object({ id: z.string().min(1), name: z.string() }).strict()),
    rooms: z.array(
      z
        .object({ id: z.string().min(1), members: z.array(z.string().min(1)), messages: z.array(legacyMessage) })
        .strict(),
    ),
  })
  .strict();

/**
 * Moves an older version's `webchat.json` into the store, once (the file is then renamed to
 * `webchat.json.imported` and left alone); resolves with the number of entries imported.
 */
export function importLegacyState(store: ChannelStore, logger: Logger, stateDir: string): Promise<number> {
  return importLegacyFile(store, logger, { file: join(stateDir, LEGACY_STATE_FILE), entries: legacyEntries });
}

/** The store entries of a version-1 `webchat.json`; throws naming what is wrong with one of another shape. */
export function legacyEntries(content: unknown): [string, JsonValue][] {
  const parsed = legacyStateSchema.safeParse(content);
  if (!parsed.success) {
    const problem = parsed.error.issues[0];
    throw new Error(`not a webchat state file (${problem?.path.join(".") || "(root)"}: ${problem?.message})`);
  }
  const entries: [string, JsonValue][] = parsed.data.users.map((user) => [userKey(user.id), { name: user.name }]);
  for (const room of parsed.data.rooms) {
    entries.push([roomKey(room.id), { members: [...new Set(room.members)] }]);
    for (const [index, { reactions, ...message }] of room.messages.entries()) {
      entries.push([messageKey(room.id, index + 1), json(message)]);
      const held = reactions.filter(([, users]) => users.length > 0);
      if (held.length > 0) entries.push([reactionsKey(room.id, index + 1), held]);
    }
  }
  return entries;
}
