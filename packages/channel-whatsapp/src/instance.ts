import { BotReactionRecord, Redactor, secretsOf } from "@chorus/channel-kit";
import { type ChannelContext, type ChannelInstance, ChorusError, type RefScope } from "@chorus/core";
import { WHATSAPP_SECRET_KEYS, type WhatsAppConfig } from "./config.js";
import { MessageAcks, WhatsAppConnection } from "./connection/index.js";
import { groupMetadataCache, learnFromSocket, People, ReactionMemory } from "./inbound/index.js";
import type { BotIdentity } from "./jids.js";
import { authDirOf } from "./link/index.js";
import { createDownload } from "./media/index.js";
import { createOutbound, DisappearingTimers } from "./outbound/index.js";
import { createReactions } from "./reactions/index.js";
import { attachReceiver, createWhatsAppReceiver, type WhatsAppReceiveDeps } from "./receive.js";
import { importLegacyState, MessageLog } from "./records/index.js";
import { withRetries } from "./retry.js";

/** The channel id (`channels.whatsapp`, `chorus channels login whatsapp`). */
export const WHATSAPP_ID = "whatsapp";
/** The channel's name as people read it. */
export const WHATSAPP_LABEL = "WhatsApp";

/** What a test may set on an instance besides its context. */
export interface WhatsAppInstanceOptions {
  /** The clock caches expire by (group metadata); tests move it instead of waiting. */
  readonly clock?: () => number;
}

/**
 * One linked WhatsApp account: a Baileys socket in and out, its records in `ctx.store`, its
 * credentials in `stateDir`. Everything it logs, throws or reports passes through a redactor that
 * knows the linked device's keys.
 */
export function createWhatsAppInstance(
  ctx: ChannelContext<WhatsAppConfig>,
  options: WhatsAppInstanceOptions = {},
): ChannelInstance {
  const { config, signal } = ctx;
  const redactor = new Redactor(secretsOf(config, WHATSAPP_SECRET_KEYS));
  const logger = redactor.logger(ctx.logger);
  const log = new MessageLog(ctx.store);
  const people = new People();
  const disappearing = new DisappearingTimers();
  const acks = new MessageAcks(config.ackTimeoutMs);
  let connection: WhatsAppConnection | undefined;
  const live = (): WhatsAppConnection => {
    if (!connection) throw new ChorusError("E_DISABLED", `${WHATSAPP_LABEL} is not started`);
    return connection;
  };
  const ready = () => live().ready();
  /** The media hosts and upload auth WhatsApp hands out (Baileys' cached `media_conn`); the auth is a secret. */
  const mediaConnection = async () => {
    const info = await (await ready()).refreshMediaConn(false);
    redactor.add(info.auth);
    return info;
  };
  const who = (): BotIdentity => live().requireIdentity();
  // Before an account is linked refs are still minted (their `fromBot` is always given).
  const unlinked: RefScope = { channel: WHATSAPP_ID, accountId: ctx.accountId, botId: "" };
  const groups = groupMetadataCache(
    (jid) =>
      withRetries(async () => (await ready()).groupMetadata(jid), {
        retries: config.retries,
        what: "group lookup",
        signal,
      }),
    config.groupMetadataTtlMs,
    options.clock,
  );
  const outbound = createOutbound({
    ready,
    who,
    scope: () => connection?.identity() ?? unlinked,
    log,
    disappearing,
    acks,
    retries: config.retries,
    signal,
    logger,
    ffmpegPath: config.ffmpegPath,
    mediaConnection,
    uploadIdleMs: config.ackTimeoutMs,
  });
  const download = createDownload({ mediaConnection, retries: config.retries, signal });
  const reactions = createReactions({
    ready,
    who,
    record: new BotReactionRecord(ctx.store),
    acks,
    retries: config.retries,
    signal,
  });
  const receiveDeps: WhatsAppReceiveDeps = {
    who: () => connection?.identity(),
    people,
    groups,
    log,
    disappearing,
    reactionMemory: new ReactionMemory(),
    emit: (event) => ctx.emit(event),
    // On the socket open now: a message kept across a reconnect is marked read on the new one.
    ...(config.sendReadReceipts ? { markRead: async (keys) => (await ready()).readMessages(keys) } : {}),
    offlineCatchUpMs: config.offlineCatchUpMs,
    logger,
    signal,
  };
  const receiver = createWhatsAppReceiver(receiveDeps);
  /** Every failure leaves the instance redacted. */
  const redacted = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw redactor.error(error);
    }
  };

  return {
    start: () =>
      redacted(async () => {
        await importLegacyState(ctx.store, logger, ctx.stateDir);
        connection = new WhatsAppConnection({
          config,
          channel: WHATSAPP_ID,
          accountId: ctx.accountId,
          authDir: authDirOf(config, ctx.stateDir),
          logger,
          redactor,
          attach: (socket) => {
            acks.watch(socket);
            learnFromSocket(socket, { people, groups });
            attachReceiver(socket, receiver, receiveDeps);
          },
          getMessage: (key) => log.content(key),
          // Sends to a group use (and fill) the same cache as inbound messages; a failed lookup lets Baileys ask.
          cachedGroupMetadata: (jid) => groups.get(jid).catch(() => undefined),
        });
        signal.addEventListener(
          "abort",
          () => connection?.stop().catch((error: unknown) => logger.warn({ err: error }, "whatsapp: stop failed")),
          { once: true },
        );
        await connection.start();
      }),
    stop: () => redacted(async () => connection?.stop()),
    send: (conversation, message) => redacted(() => outbound.send(conversation, message)),
    react: (ref, intent) => redacted(() => reactions.react(ref, intent)),
    download: (attachment, options) => redacted(() => download(attachment, options)),
    setTyping: (conversation, on) => redacted(() => outbound.setTyping(conversation, on)),
    resolveMessageRef: (conversation, messageId) => redacted(() => outbound.resolveMessageRef(conversation, messageId)),
    status: () => redactor.status(connection?.status() ?? { state: "stopped" }),
    identity: () => {
      const identity = connection?.identity();
      return identity
        ? { id: identity.pn, ...(identity.name ? { name: identity.name } : {}), e164: identity.e164 }
        : undefined;
    },
  };
}
