import type { BoundedMap } from "@chorus/channel-kit";
import {
  type ChannelInstance,
  ChorusError,
  locationText,
  type MessageRef,
  type OutboundMessage,
  type RefScope,
  splitText,
} from "@chorus/core";
import { ThreadType } from "zca-js";
import { carriesCaption, type MediaSender } from "./media-send.js";
import { handleOf, messageRef, type ThreadKind } from "./refs.js";
import type { Threads } from "./threads.js";
import type { ZaloCaller } from "./zalo/caller.js";
import { clientIdOf } from "./zalo/client-id.js";

export type { ZaloCaller } from "./zalo/caller.js";

/**
 * The longest text the channel puts in one Zalo message. Zalo documents no limit for the web
 * protocol; its apps cut long pastes into parts of this size, so longer replies are split here.
 */
export const MAX_TEXT_LENGTH = 2000;

const threadType = (kind: ThreadKind) => (kind === "group" ? ThreadType.Group : ThreadType.User);

/** `text` with an `@Name` for each mentioned id (added in front when the text lacks it), and where each one is. */
export function placeMentions(
  text: string,
  uids: readonly string[],
  names: ReadonlyMap<string, string>,
): { text: string; mentions: { pos: number; len: number; uid: string }[] } {
  const tags = uids.map((uid) => ({ uid, tag: `@${names.get(uid) ?? uid}` }));
  const missing = tags.filter(({ tag }) => !text.includes(tag)).map(({ tag }) => tag);
  const full = missing.length > 0 ? `${missing.join(" ")} ${text}` : text;
  return { text: full, mentions: tags.map(({ uid, tag }) => ({ pos: full.indexOf(tag), len: tag.length, uid })) };
}

/**
 * Sending, typing and finding a message again: everything the bot does that is not a reaction.
 * `send` sends text in parts, and each planned medium through `media-send.ts` (one a message);
 * text a medium cannot carry as its caption goes first, as a message of its own.
 */
export function createOutbound(deps: {
  call: ZaloCaller;
  threads: Threads;
  scope: () => RefScope;
  /** Refs minted by this instance (inbound and sent), by message id, for `resolveMessageRef`. */
  known: BoundedMap<string, MessageRef>;
  /** Sends one medium (media-send.ts). */
  sendMedium: MediaSender;
}): Pick<ChannelInstance, "send" | "setTyping" | "resolveMessageRef"> {
  const { call, threads, known } = deps;

  /** A text in parts of `MAX_TEXT_LENGTH`, the first quoting and mentioning as `message` asks. */
  const sendText = async (
    conversation: { id: string },
    kind: ThreadKind,
    text: string,
    message: Pick<OutboundMessage, "replyTo" | "mentions">,
  ): Promise<MessageRef[]> => {
    const scope = deps.scope();
    const quoted = message.replyTo ? handleOf(message.replyTo) : undefined;
    const names = new Map<string, string>();
    if (kind === "group" && message.mentions?.length) {
      for (const member of (await threads.group(conversation.id))?.members ?? []) {
        if (member.name) names.set(member.id, member.name);
      }
    }
    const refs: MessageRef[] = [];
    for (const part of splitText(text, MAX_TEXT_LENGTH)) {
      // Only the first part quotes and mentions; the rest continue it.
      const lead = refs.length === 0;
      const placed =
        lead && kind === "group" && message.mentions?.length
          ? placeMentions(part, message.mentions, names)
          : { text: part, mentions: [] };
      const quote =
        lead && quoted
          ? {
              content: quoted.text,
              msgType: quoted.msgType,
              propertyExt: undefined,
              uidFrom: quoted.uidFrom,
              msgId: quoted.msgId,
              cliMsgId: quoted.cliMsgId,
              ts: quoted.ts,
              ttl: quoted.ttl,
            }
          : undefined;
      const ts = String(Date.now());
      const { result, facts, api } = await call(
        `send a message to ${conversation.id}`,
        (zalo) =>
          zalo.sendMessage(
            {
              msg: placed.text,
              ...(placed.mentions.length > 0 && { mentions: placed.mentions }),
              ...(quote && { quote }),
            },
            conversation.id,
            threadType(kind),
          ),
        false,
      );
      const msgId = result.message?.msgId;
      if (msgId === undefined) throw new ChorusError("E_PLATFORM", "Zalo accepted the message but returned no msgId");
      const ref = messageRef(scope, {
        msgId: String(msgId),
        cliMsgId: clientIdOf(facts, api),
        threadId: conversation.id,
        threadKind: kind,
        uidFrom: scope.botId,
        ts,
        msgType: "webchat",
        text: placed.text,
        ttl: 0,
      });
      known.set(ref.messageId, ref);
      refs.push(ref);
    }
    return refs;
  };

  return {
    async send(conversation, message) {
      const scope = deps.scope();
      const kind = await threads.kind(conversation.id);
      // A location goes as text (zca-js has no call for one): name, address, coordinates, a map link.
      const said = [message.text, message.location ? locationText(message.location) : ""]
        .filter((text) => text.trim() !== "")
        .join("\n\n");
      const media = message.media ?? [];
      const [first] = media;
      // The text rides on the first medium where it carries a caption (a photo), else goes first: a
      // caption cannot quote or mention, so text that does goes first as a message of its own.
      const quotes = message.replyTo !== undefined || (message.mentions?.length ?? 0) > 0;
      const riding = first !== undefined && carriesCaption(first) && !quotes;
      const refs = riding || said === "" ? [] : await sendText(conversation, kind, said, message);
      const sentMedia: MessageRef[] = [];
      for (const medium of media) {
        const own = medium === first && riding ? [said, medium.caption ?? ""] : [medium.caption ?? ""];
        const caption = own.filter((text) => text.trim() !== "").join("\n\n");
        if (caption !== "" && !carriesCaption(medium)) refs.push(...(await sendText(conversation, kind, caption, {})));
        const ts = String(Date.now());
        const sent = await deps.sendMedium({ threadId: conversation.id, kind }, medium, caption);
        const ref = messageRef(scope, {
          ...sent,
          threadId: conversation.id,
          threadKind: kind,
          uidFrom: scope.botId,
          ts,
          text: sent.caption,
          ttl: 0,
        });
        known.set(ref.messageId, ref);
        sentMedia.push(ref);
      }
      const ref = sentMedia[0] ?? refs[0];
      if (!ref)
        throw new ChorusError("E_INVALID_INPUT", "nothing to send: the message has no text, medium or location");
      return ref;
    },
    async setTyping(conversation, on) {
      // Zalo's typing event shows for a few seconds and has no "stopped": nothing to send for off.
      if (!on) return;
      const kind = await threads.kind(conversation.id);
      await call(
        `show typing in ${conversation.id}`,
        (zalo) => zalo.sendTypingEvent(conversation.id, threadType(kind)),
        true,
      );
    },
    async resolveMessageRef(conversation, messageId) {
      const ref = known.get(messageId);
      if (!ref || ref.conversationId !== conversation.id) {
        throw new ChorusError(
          "E_MESSAGE_NOT_FOUND",
          `message ${messageId} is unknown in conversation ${conversation.id}`,
          {
            hint: "Zalo cannot look a message up by id: react to one the gateway received or sent.",
          },
        );
      }
      return ref;
    },
  };
}
