import type { OutboundMedium, RefScope } from "@chorus/core";
import { type ChannelInstance, ChorusError, type Logger, type MessageRef } from "@chorus/core";
import { recipientFailure } from "./errors.js";
import { markdownToStyles } from "./markdown.js";
import { checkMedia, signalSteps } from "./media-steps.js";
import { placeMentions } from "./mentions.js";
import { addressOf, recipientParams, type SignalBot, signalRef } from "./refs.js";
import type { StreamedCall, StreamedRpc } from "./streamed-rpc.js";
import { attachmentsBody } from "./uploads.js";
import type { SignalSendResponse } from "./wire.js";

/** The longest text sent as one Signal message; longer answers are split. */
export const MAX_TEXT_LENGTH = 2000;

type Outbound = Pick<ChannelInstance, "send" | "setTyping" | "resolveMessageRef">;

/**
 * Sending, typing and finding a message again: everything the bot does that is not a reaction.
 * Media go as `data:` URIs in `send`'s `attachments`, streamed (`uploads.ts`), never as paths:
 * the daemon may run on another machine.
 */
export function createOutbound(
  streamed: StreamedRpc,
  running: () => { scope: RefScope; bot: SignalBot },
  logger: Logger,
): Outbound {
  const rpc = streamed.rpc;
  return {
    async send(conversation, message) {
      // Before any request: a message sent by an instance that cannot mint its ref is lost to the agent.
      const { scope, bot } = running();
      const to = recipientParams(conversation.id);
      // Before anything is sent: a medium the daemon would refuse must not leave half the message out.
      checkMedia(message.media ?? []);
      const refs: MessageRef[] = [];
      for (const step of signalSteps(message, MAX_TEXT_LENGTH)) {
        // Only the first send quotes and mentions; the rest continue it.
        const lead = refs.length === 0;
        const params: Record<string, unknown> = {
          ...to,
          ...bodyParams(step.text, lead ? (message.mentions ?? []) : []),
        };
        if (lead && message.replyTo) {
          const quoted = addressOf(message.replyTo);
          Object.assign(params, { quoteTimestamp: quoted.timestamp, quoteAuthor: quoted.author });
        }
        const operation = `send a message to ${conversation.id}`;
        const sent = step.media
          ? await sendWithMedia(
              streamed,
              { ...params, ...(step.voiceNote ? { voiceNote: true } : {}) },
              step.media,
              operation,
            )
          : await rpc.call<SignalSendResponse>("send", params, { operation });
        warnAboutFailures(sent, bot.number, logger);
        refs.push(
          signalRef(scope, {
            conversationId: conversation.id,
            timestamp: sent.timestamp,
            author: bot.number,
            fromBot: true,
          }),
        );
      }
      return refs[0] as MessageRef;
    },
    async setTyping(conversation, on) {
      running();
      await rpc.call(
        "sendTyping",
        { ...recipientParams(conversation.id), ...(on ? {} : { stop: true }) },
        {
          idempotent: true,
          operation: `show typing in ${conversation.id}`,
        },
      );
    },
    async resolveMessageRef(_conversation, messageId) {
      // A timestamp alone does not say whose message it is; reacting to a guessed author would
      // silently land nowhere. The gateway's index knows every message the bot has seen or sent.
      throw new ChorusError("E_MESSAGE_NOT_FOUND", `Signal message ${messageId} is not one the bot has seen`, {
        hint: "Signal finds a message by its author and sent timestamp; use the id of a message from this conversation.",
      });
    },
  };
}

/** The slowest upload a send with media allows for (the daemon also uploads to Signal's CDN before it answers). */
const SLOWEST_UPLOAD_BYTES_PER_SECOND = 256 * 1024;

/** `send` with `params.attachments` as `data:` URIs, the body streamed as the media are read. */
function sendWithMedia(
  streamed: StreamedRpc,
  params: Record<string, unknown>,
  media: readonly OutboundMedium[],
  operation: string,
): Promise<SignalSendResponse> {
  const bytes = media.reduce((sum, m) => sum + m.size, 0);
  const call: StreamedCall = {
    operation,
    body: attachmentsBody(streamed.rpc.request("send", params), media),
    // A lost answer may mean the message went out: not repeated then.
    idempotent: false,
    timeoutMs: streamed.rpc.config.timeoutMs + Math.ceil(bytes / SLOWEST_UPLOAD_BYTES_PER_SECOND) * 1000,
  };
  return streamed.post(call, (response) => streamed.result<SignalSendResponse>(response, call));
}

/** The `message`, `textStyle` and `mention` params of one part: Markdown as styles, mentions as placeholders. */
function bodyParams(part: string, mentionIds: readonly string[]): Record<string, unknown> {
  const { text, styles } = markdownToStyles(part);
  const placed = placeMentions(text, mentionIds);
  const textStyle = styles.map((s) => {
    const start = placed.moved(s.start);
    return `${start}:${placed.moved(s.start + s.length) - start}:${s.style}`;
  });
  const mention = placed.mentions.map((m) => `${m.start}:${m.length}:${m.who}`);
  return {
    message: placed.text,
    ...(textStyle.length > 0 && { textStyle }),
    ...(mention.length > 0 && { mention }),
  };
}

/** A group message that reached some members but not all is sent; the rest is worth a warning. */
function warnAboutFailures(sent: SignalSendResponse, account: string, logger: Logger): void {
  for (const result of sent.results ?? []) {
    const failure = recipientFailure(result, account);
    if (failure) logger.warn({ type: result.type, hint: failure.hint }, `signal: ${failure.message}`);
  }
}
