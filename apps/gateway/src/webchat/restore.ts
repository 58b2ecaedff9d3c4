import type { ChannelStore, Logger, StoreEntry, z } from "@chorus/core";
import { type MessageRecord, messageRecord, type WebchatModel } from "./model.js";
import { LOBBY } from "./rooms.js";
import {
  MESSAGES,
  placeOf,
  REACTIONS,
  ROOMS,
  type StoredReactions,
  storedMessage,
  storedReactions,
  storedRoom,
  storedUser,
  USERS,
} from "./stored.js";

/**
 * Reads what the store keeps into an empty model, keeping at most `max` messages a room; returns
 * the messages beyond it (to be deleted from the store). Entries it cannot read are skipped and
 * named in one warning.
 */
export async function restoreModel(
  store: ChannelStore,
  model: WebchatModel,
  max: number,
  logger: Logger,
): Promise<MessageRecord[]> {
  const [users, rooms, messages, reactions] = await Promise.all(
    [USERS, ROOMS, MESSAGES, REACTIONS].map((prefix) => store.list(prefix)),
  );
  const unreadable: string[] = [];
  const read = <S extends z.ZodType>(entry: StoreEntry, schema: S): z.output<S> | undefined => {
    const parsed = schema.safeParse(entry.value);
    if (!parsed.success) unreadable.push(entry.key);
    return parsed.success ? parsed.data : undefined;
  };
  for (const entry of users ?? []) {
    const user = read(entry, storedUser);
    const id = entry.key.slice(USERS.length);
    if (user) model.users.set(id, { id, name: user.name });
  }
  for (const entry of rooms ?? []) {
    const room = read(entry, storedRoom);
    if (room) model.ensureRoom(entry.key.slice(ROOMS.length)).room.members.push(...new Set(room.members));
  }
  const reactionsAt = new Map<string, StoredReactions>();
  for (const entry of reactions ?? []) {
    const held = placeOf(entry.key, REACTIONS) && read(entry, storedReactions);
    if (held) reactionsAt.set(entry.key.slice(REACTIONS.length), held);
  }
  const dropped: MessageRecord[] = [];
  // Listed in key order: each room's messages oldest first.
  for (const entry of messages ?? []) {
    const place = placeOf(entry.key, MESSAGES);
    const message = place && read(entry, storedMessage);
    if (!place || !message) {
      if (!place) unreadable.push(entry.key);
      continue;
    }
    const { room } = model.ensureRoom(place.room);
    const held = reactionsAt.get(entry.key.slice(MESSAGES.length));
    dropped.push(...model.addMessage(room, messageRecord(room.id, place.seq, message, held), max));
  }
  model.ensureRoom(LOBBY);
  if (unreadable.length > 0) {
    logger.warn(
      { entries: unreadable.slice(0, 20), count: unreadable.length },
      "webchat: skipped stored entries it cannot read",
    );
  }
  return dropped;
}
