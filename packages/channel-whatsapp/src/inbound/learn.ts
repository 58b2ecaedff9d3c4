import type { WASocket } from "../connection/socket.js";
import type { GroupMetadataCache } from "./group-metadata.js";
import type { People } from "./people.js";

/**
 * Keeps what normalising needs current from what a socket tells besides messages: names,
 * LID ↔ phone-number mappings (contacts, history sync, Baileys' mapping updates), and group
 * metadata that changed (dropped from the cache, fetched again on the next message).
 */
export function learnFromSocket(socket: WASocket, deps: { people: People; groups: GroupMetadataCache }): void {
  const { people, groups } = deps;
  socket.ev.on("groups.update", (updates) => {
    for (const update of updates) if (update.id) groups.invalidate(update.id);
  });
  socket.ev.on("group-participants.update", ({ id }) => groups.invalidate(id));
  socket.ev.on("lid-mapping.update", (mapping) => people.learnMapping(mapping));
  socket.ev.on("contacts.upsert", (contacts) => {
    for (const contact of contacts) people.learnContact(contact);
  });
  socket.ev.on("contacts.update", (contacts) => {
    for (const contact of contacts) people.learnContact(contact);
  });
  socket.ev.on("messaging-history.set", ({ contacts, lidPnMappings }) => {
    for (const contact of contacts) people.learnContact(contact);
    for (const mapping of lidPnMappings ?? []) people.learnMapping(mapping);
  });
}
