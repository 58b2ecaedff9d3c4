import { randomBytes } from "node:crypto";
import {
  type Attachment,
  type Conversation,
  type InboundEvent,
  type MessageRef,
  mintRef,
  type Participant,
  type RefScope,
} from "@chorus/core";
import type { WebchatHub } from "./hub.js";
import { roomKind } from "./rooms.js";
import { BOT_ID, type ChatMessageView, type HubEvent, type WebchatUser } from "./types.js";

/** The ref of a webchat message. */
export function webchatRef(message: Pick<ChatMessageView, "id" | "room" | "sender">, scope: RefScope): MessageRef {
  return mintRef(scope, { conversationId: message.room, messageId: message.id, authorId: message.sender.id });
}

/**
 * Normalised inbound events (DESIGN §3) for one hub change: people's messages and reactions;
 * the bot's own, typing and room changes give none.
 */
export function toInboundEvents(event: HubEvent, hub: WebchatHub, scope: RefScope): InboundEvent[] {
  if (event.type === "message") {
    const { message } = event;
    if (message.sender.id === BOT_ID) return [];
    const conversation = conversationOf(hub, message.room);
    return [
      {
        type: "message",
        eventId: `${scope.accountId}:${message.id}`,
        conversation,
        sender: participant(message.sender),
        text: message.text,
        mentions: {
          bot: message.mentions.some((m) => m.id === BOT_ID),
          others: message.mentions.filter((m) => m.id !== BOT_ID).map((m) => m.id),
        },
        ...(message.replyTo
          ? {
              replyTo: {
                messageId: message.replyTo.id,
                fromBot: message.replyTo.sender.id === BOT_ID,
                text: message.replyTo.text,
                senderId: message.replyTo.sender.id,
              },
            }
          : {}),
        ...(message.attachments || message.location ? { attachments: attachmentsOf(message) } : {}),
        ref: webchatRef(message, scope),
        timestamp: message.ts,
      },
    ];
  }
  if (event.type !== "reactions") return [];
  const changes = event.changes.filter((change) => change.userId !== BOT_ID);
  const target = hub.message(event.messageId);
  if (changes.length === 0 || !target) return [];
  const conversation = conversationOf(hub, event.room);
  const timestamp = Date.now();
  const batch = randomBytes(6).toString("base64url");
  return changes.map((change, index) => ({
    type: "reaction",
    eventId: `${scope.accountId}:${event.messageId}:reaction:${batch}.${index}`,
    conversation,
    target: webchatRef(target, scope),
    emoji: change.emoji,
    action: change.action,
    actor: participant(hub.user(change.userId) ?? { id: change.userId, name: change.userId }),
    timestamp,
  }));
}

/** A message's media as attachments (`source`: the medium's id, what `download` reads), then its pin. */
function attachmentsOf(message: ChatMessageView): Attachment[] {
  const media = (message.attachments ?? []).map(
    (medium): Attachment => ({
      kind: medium.kind,
      mime: medium.mime,
      size: medium.size,
      filename: medium.filename,
      ...(medium.width !== undefined && medium.height !== undefined
        ? { width: medium.width, height: medium.height }
        : {}),
      source: medium.id,
    }),
  );
  return message.location ? [...media, { kind: "location", location: message.location }] : media;
}

function conversationOf(hub: WebchatHub, roomId: string): Conversation {
  const room = hub.room(roomId);
  const kind = roomKind(roomId);
  return {
    id: roomId,
    kind,
    ...(kind === "group" ? { title: roomId } : {}),
    members: (room?.members ?? [hub.bot]).map(participant),
  };
}

function participant(user: WebchatUser): Participant {
  return { id: user.id, name: user.name, ...(user.bot ? { isBot: true } : {}) };
}
