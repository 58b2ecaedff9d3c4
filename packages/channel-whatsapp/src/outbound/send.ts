import { createHash } from "node:crypto";
import { type ChannelInstance, ChorusError, type Logger, type MessageRef, type RefScope } from "@chorus/core";
import { type AnyMessageContent, generateMessageIDV2, isJidGroup, type WAMessage } from "@whiskeysockets/baileys";
import type { MessageAcks } from "../connection/acks.js";
import type { WASocket } from "../connection/socket.js";
import { neverSent } from "../errors.js";
import { type BotIdentity, chatJidOf, userJidOf, userOf } from "../jids.js";
import { checkMediaLimits } from "../media/outbound.js";
import type { MessageLog } from "../records/message-log.js";
import { addressOfRef, whatsappMessageRef } from "../ref.js";
import { withRetries } from "../retry.js";
import type { DisappearingTimers } from "./disappearing.js";
import { type SendStep, stepsOf } from "./steps.js";

/** Message ids WhatsApp clients make: letters and digits (`3EB0…`, `BAE5…`). */
const MESSAGE_ID = /^[A-Za-z0-9_-]{4,128}$/;

/** What sending needs from the instance. */
export interface OutboundDeps {
  /** The open socket (waits while reconnecting; fails when not linked). */
  readonly ready: () => Promise<WASocket>;
  /** The linked account; present once the socket is ready. */
  readonly who: () => BotIdentity;
  /** Mints refs when no account is linked yet (resolving an id needs no connection). */
  readonly scope: () => RefScope;
  /** The message log in the store: authors for quotes and refs, content for retry requests. */
  readonly log: MessageLog;
  readonly disappearing: DisappearingTimers;
  /** WhatsApp's acks: a part counts as sent once acknowledged. */
  readonly acks: MessageAcks;
  readonly retries: number;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** `ffmpegPath` from the config (voice notes that are no Ogg/Opus are transcoded with it). */
  readonly ffmpegPath?: string | undefined;
  /** Fetches WhatsApp's `media_conn` (so its upload auth is known as a secret before Baileys uploads). */
  readonly mediaConnection?: () => Promise<unknown>;
  /** How long an upload may go without a byte moving before it fails (`ackTimeoutMs`); unset: no limit. */
  readonly uploadIdleMs?: number | undefined;
}

/** Sending, typing and finding messages again: everything the bot does that is not a reaction. */
export function createOutbound(deps: OutboundDeps): Pick<ChannelInstance, "send" | "setTyping" | "resolveMessageRef"> {
  /** The message to quote: its full key (author from the record where the ref lacks it) and text. */
  const quotedOf = async (ref: MessageRef): Promise<WAMessage | undefined> => {
    const address = addressOfRef(ref);
    const logged = await deps.log.get(address.remoteJid, address.id);
    const fromMe = address.fromMe || logged?.fromMe === true;
    const participant = address.participant ?? logged?.participant;
    if (isJidGroup(address.remoteJid) && !fromMe && !participant) {
      // Quoting without the author would show the quote as written by the group; answer unquoted.
      deps.logger.debug({ messageId: address.id }, "whatsapp: reply sent without a quote (author unknown)");
      return undefined;
    }
    return {
      key: { remoteJid: address.remoteJid, id: address.id, fromMe, ...(participant ? { participant } : {}) },
      message: { conversation: logged?.text ?? "" },
    };
  };

  /** Sends one message and waits for its ack; records it in the log; returns its ref. */
  const sendStep = async (
    jid: string,
    step: SendStep,
    index: number,
    options: { mentions: readonly string[]; quoted: WAMessage | undefined; idempotencyKey: string | undefined },
  ): Promise<MessageRef> => {
    const expiration = deps.disappearing.of(jid);
    // The id is ours, so the ack can be awaited from before the stanza is written (and a repeat keeps it).
    // A reply the gateway's outbox resends after a crash gets the same id (from its idempotency
    // key): WhatsApp treats a message id seen before as the same message, so it is not shown twice.
    const messageId = options.idempotencyKey
      ? idempotentMessageId(options.idempotencyKey, index)
      : generateMessageIDV2();
    const ack = deps.acks.expect(messageId, "message");
    let sent: WAMessage | undefined;
    try {
      const written = await withRetries(
        async () => {
          const socket = await deps.ready();
          const content: AnyMessageContent = step.content(options.mentions);
          const result = await socket.sendMessage(jid, content, {
            messageId,
            useCachedGroupMetadata: true,
            ...(options.quoted ? { quoted: options.quoted } : {}),
            ...(expiration ? { ephemeralExpiration: expiration } : {}),
            // Baileys' upload has no timeout of its own: a media host that stops answering would hold the send forever.
            ...(deps.uploadIdleMs !== undefined ? { mediaUploadTimeoutMs: deps.uploadIdleMs } : {}),
          });
          return { socket, result };
        },
        { retries: deps.retries, what: "send", signal: deps.signal, shouldRetry: neverSent },
      );
      sent = written.result;
      await ack.confirmed(written.socket);
    } finally {
      ack.cancel();
    }
    if (!sent?.key.id) throw new ChorusError("E_PLATFORM", "WhatsApp returned no message id for a sent message");
    const who = deps.who();
    const address = {
      remoteJid: jid,
      id: sent.key.id,
      fromMe: true,
      ...(isJidGroup(jid) ? { participant: who.pn } : {}),
    };
    // Recorded before the next message goes: a recipient's retry request needs the content.
    await deps.log
      .record({ ...address, fromBot: true, text: step.note }, sent.message)
      .catch((error: unknown) => deps.logger.warn({ err: error }, "whatsapp: could not record a sent message"));
    return whatsappMessageRef(who, address, true);
  };

  return {
    /**
     * Sends text in 4000-character parts, each medium as a message of its own and a location as a
     * pin (`stepsOf`), the first message quoting `replyTo`, each mentioning the people whose
     * `@<number>` it shows; returns the first message's ref. A medium over its limit fails before
     * anything is sent. Each message waits for WhatsApp's ack before the next goes, and is sent
     * again only when it provably never left (the connection was down, or its upload failed),
     * never twice. Where a medium went out as another kind than planned (a voice note without
     * ffmpeg, as audio), the ref's `data.sentAs` lists the kinds the media went out as.
     */
    async send(conversation, message) {
      const jid = chatJidOf(conversation.id);
      checkMediaLimits(message.media ?? []);
      if ((message.media?.length ?? 0) > 0) {
        await withRetries(async () => deps.mediaConnection?.(), {
          retries: deps.retries,
          what: "media host lookup",
          signal: deps.signal,
        });
      }
      const steps = await stepsOf(message, { ffmpegPath: deps.ffmpegPath, logger: deps.logger });
      const mentions = placeMentions(
        steps.map((step) => step.shown),
        (message.mentions ?? []).map(userJidOf),
      );
      let first: MessageRef | undefined;
      for (const [index, step] of steps.entries()) {
        const quoted = index === 0 && message.replyTo ? await quotedOf(message.replyTo) : undefined;
        const ref = await sendStep(jid, step, index, {
          mentions: mentions[index] ?? [],
          quoted,
          idempotencyKey: message.idempotencyKey,
        });
        first ??= ref;
      }
      return withSentAs(first as MessageRef, steps);
    },

    /** Shows "typing…" in the chat, or stops showing it. */
    async setTyping(conversation, on) {
      const jid = chatJidOf(conversation.id);
      await withRetries(async () => (await deps.ready()).sendPresenceUpdate(on ? "composing" : "paused", jid), {
        retries: 0,
        what: "typing",
        signal: deps.signal,
      });
    },

    /**
     * The ref of a message id the agent saw: from the record of messages seen and sent; in a
     * direct chat an unknown id is completed as the other person's message. A group message needs
     * its author, so an unknown id there is `E_MESSAGE_NOT_FOUND`.
     */
    async resolveMessageRef(conversation, messageId) {
      const jid = chatJidOf(conversation.id);
      const logged = await deps.log.get(jid, messageId);
      if (logged) return whatsappMessageRef(deps.scope(), logged, logged.fromBot);
      if (!MESSAGE_ID.test(messageId)) {
        throw new ChorusError("E_MESSAGE_NOT_FOUND", `"${messageId}" is not a WhatsApp message id`);
      }
      if (!isJidGroup(jid)) {
        return whatsappMessageRef(deps.scope(), { remoteJid: jid, id: messageId, fromMe: false }, false);
      }
      throw new ChorusError("E_MESSAGE_NOT_FOUND", `message ${messageId} is unknown in WhatsApp group ${jid}`, {
        hint: "WhatsApp addresses a group message by its author, which is known only for messages the gateway received or sent; use the messageId of one of those.",
      });
    },
  };
}

/**
 * Which mentions go with which part: each with the parts whose text has its `@<number>`, and
 * those no part shows with the first (WhatsApp still notifies them).
 */
export function placeMentions(parts: readonly string[], mentions: readonly string[]): string[][] {
  const placed = parts.map(() => [] as string[]);
  for (const jid of new Set(mentions)) {
    const user = userOf(jid) ?? "";
    const pattern = new RegExp(`@${user}(?!\\d)`);
    let shown = false;
    parts.forEach((text, index) => {
      if (user !== "" && pattern.test(text)) {
        placed[index]?.push(jid);
        shown = true;
      }
    });
    if (!shown) placed[0]?.push(jid);
  }
  return placed;
}

/** The ref of a send, with `data.sentAs` (the kinds its media went out as) where one went out as another kind than planned. */
function withSentAs(ref: MessageRef, steps: readonly SendStep[]): MessageRef {
  const media = steps.flatMap((step) => (step.medium ? [step.medium] : []));
  if (media.every((medium) => medium.asked === medium.sentAs)) return ref;
  return { ...ref, data: { ...ref.data, sentAs: media.map((medium) => medium.sentAs) } };
}

/** A message id of Baileys' shape (`3EB0` + 18 upper-case hex), the same for every attempt of one part of one reply. */
export function idempotentMessageId(key: string, part: number): string {
  return `3EB0${createHash("sha256").update(`${key}:${part}`).digest("hex").slice(0, 18).toUpperCase()}`;
}
