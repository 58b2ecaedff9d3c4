import type { InboundEvent, Logger } from "@chorus/core";
import {
  type GroupMetadata,
  isJidGroup,
  isLidUser,
  jidNormalizedUser,
  type MessageUpsertType,
  type WAMessage,
} from "@whiskeysockets/baileys";
import type { BoundedSet } from "./bounded.js";
import type { DisappearingTimers } from "./disappearing.js";
import type { GroupMetadataCache } from "./group-metadata.js";
import { type InboundContext, normaliseMessage } from "./inbound.js";
import { normaliseReaction, type ReactionMemory, type ReactionUpdate } from "./inbound-reactions.js";
import type { BotIdentity } from "./jids.js";
import type { MessageLog } from "./message-log.js";
import type { People } from "./people.js";
import type { WASocket } from "./socket.js";
import { contextInfoOf, unwrapContent } from "./text.js";

/** What the listeners of every socket share with the instance. */
export interface ListenerDeps {
  readonly who: () => BotIdentity | undefined;
  readonly people: People;
  readonly groups: GroupMetadataCache;
  readonly log: MessageLog;
  readonly disappearing: DisappearingTimers;
  readonly reactionMemory: ReactionMemory;
  /** Event ids already emitted, across reconnects (WhatsApp redelivers what was not acknowledged). */
  readonly seen: BoundedSet<string>;
  readonly emit: (event: InboundEvent) => void;
  readonly sendReadReceipts: boolean;
  /** How far back messages delivered late (while the device was offline) are still input; 0: none. */
  readonly offlineCatchUpMs: number;
  readonly logger: Logger;
}

/**
 * Wires one socket's events to normalised inbound events: messages and reactions (in the order
 * WhatsApp delivered them, deduplicated), plus what keeps names, LID mappings and group metadata
 * current. A message whose group metadata cannot be fetched is still emitted, without title and
 * members.
 */
export function attachListeners(socket: WASocket, deps: ListenerDeps): void {
  let queue: Promise<void> = Promise.resolve();
  const inOrder = (what: string, task: () => Promise<void>) => {
    queue = queue
      .then(task)
      .catch((error: unknown) => deps.logger.warn({ err: error }, `whatsapp: dropped an inbound ${what}`));
  };

  socket.ev.on("messages.upsert", ({ messages, type }) => {
    for (const message of messages) inOrder("message", () => handleMessage(socket, deps, message, type));
  });
  socket.ev.on("messages.reaction", (updates) => {
    for (const update of updates) inOrder("reaction", () => handleReaction(socket, deps, update));
  });
  socket.ev.on("groups.update", (updates) => {
    for (const update of updates) if (update.id) deps.groups.invalidate(update.id);
  });
  socket.ev.on("group-participants.update", ({ id }) => deps.groups.invalidate(id));
  socket.ev.on("lid-mapping.update", (mapping) => deps.people.learnMapping(mapping));
  socket.ev.on("contacts.upsert", (contacts) => {
    for (const contact of contacts) deps.people.learnContact(contact);
  });
  socket.ev.on("contacts.update", (contacts) => {
    for (const contact of contacts) deps.people.learnContact(contact);
  });
  socket.ev.on("messaging-history.set", ({ contacts, lidPnMappings }) => {
    for (const contact of contacts) deps.people.learnContact(contact);
    for (const mapping of lidPnMappings ?? []) deps.people.learnMapping(mapping);
  });
}

async function handleMessage(
  socket: WASocket,
  deps: ListenerDeps,
  message: WAMessage,
  type: MessageUpsertType,
): Promise<void> {
  const who = deps.who();
  const remoteJid = message.key.remoteJid ? jidNormalizedUser(message.key.remoteJid) : "";
  if (!who || deps.seen.has(`wa:${remoteJid}:${message.key.id}`)) return;
  deps.people.learnFromMessage(message);
  // Whether a message is input never depends on the group's metadata: decide before fetching it.
  let result = normaliseMessage(message, type, contextFor(deps, who, undefined));
  if (!("dropped" in result)) {
    const group = await groupOf(deps, remoteJid);
    await learnPhoneNumbers(socket, deps, message);
    result = normaliseMessage(message, type, contextFor(deps, who, group));
  }
  if ("dropped" in result) {
    deps.logger.debug({ id: message.key.id, chat: remoteJid, reason: result.dropped }, "whatsapp: message not input");
    return;
  }
  const { event } = result;
  if (!deps.seen.add(event.eventId)) return;
  deps.disappearing.learn(remoteJid, contextInfoOf(unwrapContent(message.message))?.expiration);
  const {
    remoteJid: chat,
    fromMe,
    participant,
  } = event.ref.data as { remoteJid: string; fromMe: boolean; participant?: string };
  deps.log
    .record({
      remoteJid: chat,
      id: event.ref.messageId,
      fromMe,
      ...(participant ? { participant } : {}),
      fromBot: false,
      text: event.text,
    })
    .catch((error: unknown) => deps.logger.warn({ err: error }, "whatsapp: could not record a received message"));
  deps.emit(event);
  if (deps.sendReadReceipts && !fromMe) {
    socket.readMessages([message.key]).catch((error: unknown) => {
      deps.logger.debug({ err: error }, "whatsapp: could not send a read receipt");
    });
  }
}

async function handleReaction(socket: WASocket, deps: ListenerDeps, update: ReactionUpdate): Promise<void> {
  const who = deps.who();
  if (!who) return;
  const remoteJid = jidNormalizedUser(update.key.remoteJid ?? "");
  const eventKey = update.reaction.key?.id ? `wa:${remoteJid}:${update.reaction.key.id}` : undefined;
  if (eventKey && deps.seen.has(eventKey)) return;
  const group = await groupOf(deps, remoteJid);
  const reactor = update.reaction.key?.participant ?? update.reaction.key?.remoteJid;
  await learnPhoneNumbers(socket, deps, undefined, reactor ? [reactor] : []);
  const result = normaliseReaction(update, contextFor(deps, who, group), deps.reactionMemory);
  if ("dropped" in result) {
    deps.logger.debug({ chat: remoteJid, reason: result.dropped }, "whatsapp: reaction not input");
    return;
  }
  if (!deps.seen.add(result.event.eventId)) return;
  deps.emit(result.event);
}

/** The group's metadata when the chat is a group; a failed lookup is logged, not fatal. */
async function groupOf(deps: ListenerDeps, jid: string): Promise<GroupMetadata | undefined> {
  if (!isJidGroup(jid)) return undefined;
  try {
    const metadata = await deps.groups.get(jid);
    deps.people.learnFromGroup(metadata);
    deps.disappearing.learn(jid, metadata.ephemeralDuration ?? 0);
    return metadata;
  } catch (error) {
    deps.logger.warn(
      { err: error, group: jid },
      "whatsapp: group metadata unavailable; the message goes on without it",
    );
    return undefined;
  }
}

/** Asks Baileys' own LID ↔ phone-number store about the LIDs of a message that are still unknown. */
async function learnPhoneNumbers(
  socket: WASocket,
  deps: ListenerDeps,
  message: WAMessage | undefined,
  extra: readonly string[] = [],
): Promise<void> {
  const info = message ? contextInfoOf(unwrapContent(message.message)) : undefined;
  const candidates = [
    message?.key.participant,
    message?.key.remoteJid,
    info?.participant,
    ...(info?.mentionedJid ?? []),
    ...extra,
  ];
  const unknown = [
    ...new Set(
      candidates
        .filter((jid): jid is string => typeof jid === "string" && isLidUser(jid) === true)
        .map((jid) => jidNormalizedUser(jid))
        .filter((jid) => deps.people.pnOf(jid) === undefined),
    ),
  ];
  if (unknown.length === 0) return;
  try {
    for (const mapping of (await socket.signalRepository.lidMapping.getPNsForLIDs(unknown)) ?? []) {
      deps.people.learnMapping(mapping);
    }
  } catch (error) {
    deps.logger.debug({ err: error }, "whatsapp: LID lookup failed");
  }
}

function contextFor(deps: ListenerDeps, who: BotIdentity, group: GroupMetadata | undefined): InboundContext {
  return {
    who,
    group,
    pnOf: (lid) => deps.people.pnOf(lid),
    nameOf: (jid) => deps.people.nameOf(jid),
    sentByBot: (id) => deps.log.sentByBot(id),
    ...(deps.offlineCatchUpMs > 0 ? { catchUpSince: Date.now() - deps.offlineCatchUpMs } : {}),
  };
}
