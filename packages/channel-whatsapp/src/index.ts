/**
 * WhatsApp, through Baileys (a linked device of the owner's account): the plugin object the
 * gateway imports and the wiring of one account. Each concern lives in its own file:
 * `config.ts` → `auth-state.ts` + `login.ts` (linking) → `connection.ts` (+ `socket.ts`) →
 * `listeners.ts` → `inbound.ts` / `inbound-reactions.ts` → `outbound.ts` → `reactions.ts`.
 */
import {
  CHORUS_API_VERSION,
  type ChannelCapabilities,
  type ChannelContext,
  type ChannelInstance,
  ChorusError,
  defineChannel,
} from "@chorus/core";
import { MessageAcks } from "./acks.js";
import { authDirOf } from "./auth-state.js";
import { BoundedSet } from "./bounded.js";
import { type WhatsAppConfig, whatsappConfigSchema } from "./config.js";
import { WhatsAppConnection } from "./connection.js";
import { DisappearingTimers } from "./disappearing.js";
import { GroupMetadataCache } from "./group-metadata.js";
import { ReactionMemory } from "./inbound-reactions.js";
import type { BotIdentity } from "./jids.js";
import { attachListeners } from "./listeners.js";
import { linkAccount } from "./login.js";
import { MessageLog } from "./message-log.js";
import { WHATSAPP_MAX_TEXT, WhatsAppOutbound } from "./outbound.js";
import { People } from "./people.js";
import { BotReactionStore } from "./reaction-store.js";
import { WhatsAppReactions } from "./reactions.js";
import { RecentContent } from "./recent-content.js";
import { withRetries } from "./retry.js";

const ID = "whatsapp";
const LABEL = "WhatsApp";
/** Inbound event ids remembered for deduplication across reconnects. */
const REMEMBERED_EVENTS = 5_000;

/** What WhatsApp can do, as data (DESIGN §2.2 row WhatsApp: clearAll, singleSlot). */
export const whatsappCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"],
  reactions: {
    clearAll: true, // `emoji: ""` / `clearAll: true` → react with text "" (empties the slot)
    singleSlot: true, // one reaction per person per message; a new one replaces it
    tapbackOnly: false,
    addOnly: false,
    list: false, // WhatsApp has no call that lists reactions
  },
  typing: true,
  inboundReactions: true,
  replies: true,
  threads: false,
  maxTextLength: WHATSAPP_MAX_TEXT,
};

/** The WhatsApp channel plugin; the package's default export. */
export const whatsappChannel = defineChannel<WhatsAppConfig>({
  id: ID,
  apiVersion: CHORUS_API_VERSION,
  label: LABEL,
  capabilities: whatsappCapabilities,
  configSchema: whatsappConfigSchema,
  create: (ctx) => createWhatsAppInstance(ctx),
  login: (ctx) => linkAccount(ctx),
});

export default whatsappChannel;

/** One linked WhatsApp account: a Baileys socket in and out, with what it remembers in `stateDir`. */
function createWhatsAppInstance(ctx: ChannelContext<WhatsAppConfig>): ChannelInstance {
  const { config, logger, signal } = ctx;
  const ids = { channel: ID, accountId: ctx.accountId };
  const log = new MessageLog(ctx.stateDir);
  const content = new RecentContent();
  const people = new People();
  const disappearing = new DisappearingTimers();
  const acks = new MessageAcks(config.ackTimeoutMs);
  let connection: WhatsAppConnection | undefined;
  const live = (): WhatsAppConnection => {
    if (!connection) throw new ChorusError("E_DISABLED", `${LABEL} is not started`);
    return connection;
  };
  const ready = () => live().ready();
  const who = (): BotIdentity => live().requireIdentity();
  const groups = new GroupMetadataCache(
    (jid) =>
      withRetries(async () => (await ready()).groupMetadata(jid), {
        retries: config.retries,
        what: "group lookup",
        signal,
      }),
    config.groupMetadataTtlMs,
  );
  const outbound = new WhatsAppOutbound({
    ready,
    who,
    ids,
    log,
    content,
    disappearing,
    acks,
    retries: config.retries,
    signal,
    logger,
  });
  const reactions = new WhatsAppReactions({
    ready,
    who,
    store: new BotReactionStore(ctx.stateDir),
    acks,
    retries: config.retries,
    signal,
  });
  const listenerDeps = {
    who: () => connection?.identity(),
    people,
    groups,
    log,
    disappearing,
    reactionMemory: new ReactionMemory(),
    seen: new BoundedSet<string>(REMEMBERED_EVENTS),
    emit: (event: Parameters<typeof ctx.emit>[0]) => ctx.emit(event),
    sendReadReceipts: config.sendReadReceipts,
    offlineCatchUpMs: config.offlineCatchUpMs,
    logger,
  };

  return {
    async start() {
      await log.load();
      connection = new WhatsAppConnection({
        config,
        channel: ID,
        accountId: ctx.accountId,
        authDir: authDirOf(config, ctx.stateDir),
        logger,
        attach: (socket) => {
          acks.watch(socket);
          attachListeners(socket, listenerDeps);
        },
        getMessage: (key) => content.get(key),
        // Sends to a group use (and fill) the same cache as inbound messages; a failed lookup lets Baileys ask.
        cachedGroupMetadata: (jid) => groups.get(jid).catch(() => undefined),
      });
      signal.addEventListener("abort", () => void connection?.stop(), { once: true });
      await connection.start();
    },
    async stop() {
      await connection?.stop();
      await log.flush();
    },
    send: (conversation, message) => outbound.send(conversation, message),
    react: (ref, intent) => reactions.react(ref, intent),
    setTyping: (conversation, on) => outbound.setTyping(conversation, on),
    resolveMessageRef: (conversation, messageId) => outbound.resolveMessageRef(conversation, messageId),
    status: () => connection?.status() ?? { state: "stopped" },
    identity: () => {
      const identity = connection?.identity();
      return identity
        ? { id: identity.pn, ...(identity.name ? { name: identity.name } : {}), e164: identity.e164 }
        : undefined;
    },
  };
}

export { authDirOf, isLinked, openAuthState, saveLinkedCreds, type WhatsAppAuthState } from "./auth-state.js";
export { type WhatsAppConfig, whatsappConfigSchema } from "./config.js";
export { DEFAULT_RETRY_AFTER_MS, toWhatsAppError } from "./errors.js";
export { type InboundContext, type NormalisedMessage, normaliseMessage } from "./inbound.js";
export {
  type NormalisedReaction,
  normaliseReaction,
  ReactionMemory,
  type ReactionUpdate,
} from "./inbound-reactions.js";
export { type BotIdentity, chatJidOf, e164OfJid, userJidOf } from "./jids.js";
export { mentionFacts } from "./mentions.js";
export { WHATSAPP_MAX_TEXT } from "./outbound.js";
export { planReaction, QUICK_REACTIONS, whatsappEmoji } from "./reactions.js";
export { addressOfRef, messageKeyOf, whatsappMessageRef } from "./ref.js";
