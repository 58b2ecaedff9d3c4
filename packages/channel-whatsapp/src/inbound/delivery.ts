import type { Logger } from "@chorus/core";
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
import type { ReactionUpdate } from "./reaction.js";

/**
 * What Baileys delivered, with what normalising it needs, looked up first (group metadata,
 * phone numbers behind LIDs, the bot's own sent ids). `failed`: a lookup failed, and the
 * receiver decides what that means (a retryable one is not committed, any other unreadable).
 */
export type WhatsAppDelivery =
  | {
      readonly kind: "message";
      readonly message: WAMessage;
      readonly type: MessageUpsertType;
      readonly context: InboundContext;
    }
  | { readonly kind: "reaction"; readonly update: ReactionUpdate; readonly context: InboundContext }
  | { readonly kind: "failed"; readonly what: string; readonly error: unknown };

/** What the lookups need from the instance. */
export interface LookupDeps {
  readonly who: () => BotIdentity | undefined;
  readonly people: People;
  readonly groups: GroupMetadataCache;
  readonly log: MessageLog;
  readonly disappearing: DisappearingTimers;
  /** How far back messages delivered late (while the device was offline) are still input; 0: none. */
  readonly offlineCatchUpMs: number;
  readonly logger: Logger;
}

/**
 * One `messages.upsert` message as a delivery; undefined before the linked account is known. A
 * message whose group metadata cannot be fetched still goes on, without title and members.
 */
export async function messageDelivery(
  socket: WASocket,
  deps: LookupDeps,
  message: WAMessage,
  type: MessageUpsertType,
): Promise<WhatsAppDelivery | undefined> {
  const who = deps.who();
  if (!who) return undefined;
  try {
    const remoteJid = message.key.remoteJid ? jidNormalizedUser(message.key.remoteJid) : "";
    deps.people.learnFromMessage(message);
    const quoted = contextInfoOf(unwrapContent(message.message))?.stanzaId;
    const sent = await deps.log.sentByBot(remoteJid, [message.key.id, quoted]);
    let context = contextFor(deps, who, undefined, sent);
    // Whether a message is input never depends on the group's metadata: decide before fetching it.
    if ("event" in normalizeMessage(message, type, context)) {
      const group = await groupOf(deps, remoteJid);
      await learnPhoneNumbers(socket, deps, message);
      context = contextFor(deps, who, group, sent);
    }
    return { kind: "message", message, type, context };
  } catch (error) {
    return { kind: "failed", what: `message ${message.key.id}`, error };
  }
}

/** One `messages.reaction` entry as a delivery; undefined before the linked account is known. */
export async function reactionDelivery(
  socket: WASocket,
  deps: LookupDeps,
  update: ReactionUpdate,
): Promise<WhatsAppDelivery | undefined> {
  const who = deps.who();
  if (!who) return undefined;
  try {
    const remoteJid = jidNormalizedUser(update.key.remoteJid ?? "");
    const group = await groupOf(deps, remoteJid);
    const reactor = update.reaction.key?.participant ?? update.reaction.key?.remoteJid;
    await learnPhoneNumbers(socket, deps, undefined, reactor ? [reactor] : []);
    const sent = await deps.log.sentByBot(remoteJid, [update.key.id]);
    return { kind: "reaction", update, context: contextFor(deps, who, group, sent) };
  } catch (error) {
    return { kind: "failed", what: `reaction to ${update.key.id}`, error };
  }
}

/** The group's metadata when the chat is a group; a failed lookup is logged, not fatal. */
async function groupOf(deps: LookupDeps, jid: string): Promise<GroupMetadata | undefined> {
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
  deps: LookupDeps,
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
  deps: LookupDeps,
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
