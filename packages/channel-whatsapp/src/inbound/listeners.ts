import type { InboundEvent, Logger } from "@chorus/core";
import {
  type GroupMetadata,
  isJidGroup,
  isLidUser,
  jidNormalizedUser,
  type MessageUpsertType,
  type WAMessage,
} from "@whiskeysockets/baileys";
import type { WASocket } from "../connection/socket.js";
import type { BotIdentity } from "../jids.js";
import type { DisappearingTimers } from "../outbound/disappearing.js";
import type { MessageLog } from "../records/message-log.js";
import { contextInfoOf, unwrapContent } from "./content.js";
import type { GroupMetadataCache } from "./group-metadata.js";
import { type InboundContext, normalizeMessage } from "./message.js";
import type { People } from "./people.js";
import { normalizeReactionUpdate, type ReactionMemory, type ReactionUpdate } from "./reaction.js";

/** What the listeners of every socket share with the instance. */
export interface ListenerDeps {
  readonly who: () => BotIdentity | undefined;
  readonly people: People;
  readonly groups: GroupMetadataCache;
  readonly log: MessageLog;
  readonly disappearing: DisappearingTimers;
  readonly reactionMemory: ReactionMemory;
  readonly emit: (event: InboundEvent) => void;
  readonly sendReadReceipts: boolean;
  /** How far back messages delivered late (while the device was offline) are still input; 0: none. */
  readonly offlineCatchUpMs: number;
  readonly logger: Logger;
}

/**
 * Wires one socket's events to normalized inbound events: messages and reactions (in the order
 * WhatsApp delivered them), plus what keeps names, LID mappings and group metadata current. A
 * message whose group metadata cannot be fetched is still emitted, without title and members; a
 * message that cannot be read is a warning. A redelivery (WhatsApp sends a message again when its
 * receipt was lost) is emitted again with the same `eventId`, which the gateway drops. No check
 * of its own runs first: a redelivery comes while the group's metadata is still cached, so
 * skipping it would save no lookup, and a set of seen ids would not survive a restart anyway.
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
  if (!who) return;
  const remoteJid = message.key.remoteJid ? jidNormalizedUser(message.key.remoteJid) : "";
  deps.people.learnFromMessage(message);
  const quoted = contextInfoOf(unwrapContent(message.message))?.stanzaId;
  const sent = await deps.log.sentByBot(remoteJid, [message.key.id, quoted]);
  // Whether a message is input never depends on the group's metadata: decide before fetching it.
  let result = normalizeMessage(message, type, contextFor(deps, who, undefined, sent));
  if ("event" in result) {
    const group = await groupOf(deps, remoteJid);
    await learnPhoneNumbers(socket, deps, message);
    result = normalizeMessage(message, type, contextFor(deps, who, group, sent));
  }
  if ("unreadable" in result) {
    const from = message.key.participant ?? message.key.remoteJid;
    deps.logger.warn(
      { id: message.key.id, chat: remoteJid, from, problem: result.unreadable },
      `whatsapp: could not read message ${message.key.id} from ${from} in ${remoteJid}: ${result.unreadable}`,
    );
    return;
  }
  if ("dropped" in result) {
    deps.logger.debug({ id: message.key.id, chat: remoteJid, reason: result.dropped }, "whatsapp: message not input");
    return;
  }
  const { event } = result;
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
  const group = await groupOf(deps, remoteJid);
  const reactor = update.reaction.key?.participant ?? update.reaction.key?.remoteJid;
  await learnPhoneNumbers(socket, deps, undefined, reactor ? [reactor] : []);
  const sent = await deps.log.sentByBot(remoteJid, [update.key.id]);
  const result = normalizeReactionUpdate(update, contextFor(deps, who, group, sent), deps.reactionMemory);
  if ("dropped" in result) {
    deps.logger.debug({ chat: remoteJid, reason: result.dropped }, "whatsapp: reaction not input");
    return;
  }
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

function contextFor(
  deps: ListenerDeps,
  who: BotIdentity,
  group: GroupMetadata | undefined,
  sent: ReadonlySet<string>,
): InboundContext {
  return {
    who,
    group,
    pnOf: (lid) => deps.people.pnOf(lid),
    nameOf: (jid) => deps.people.nameOf(jid),
    sentByBot: (id) => sent.has(id),
    ...(deps.offlineCatchUpMs > 0 ? { catchUpSince: Date.now() - deps.offlineCatchUpMs } : {}),
  };
}
