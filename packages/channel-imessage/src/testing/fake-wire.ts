import { type FakeResponse, json } from "@chorus/testkit";
import type { FakeBlueBubblesState, FakeMessage } from "./fake-state.js";

/** BlueBubbles' envelope: `{ status, message, data }`, with `error` on failures. */
export function answer(status: number, message: string, data?: unknown): FakeResponse {
  if (status < 300) return json(status, { status, message, data: data ?? null });
  const type = status === 401 ? "Authentication Error" : status === 404 ? "Not Found" : "Validation Error";
  return json(status, { status, message, error: { type, message } });
}

/** A message as BlueBubbles serialises it in REST answers and webhooks (with its chat). */
export function serializeMessage(state: FakeBlueBubblesState, message: FakeMessage): Record<string, unknown> {
  const chat = state.chats.get(message.chatGuid);
  return {
    guid: message.guid,
    text: message.text,
    handle: message.handle ? { address: message.handle, country: "us" } : null,
    handleId: message.handle ? 1 : 0,
    isFromMe: message.isFromMe,
    dateCreated: message.dateCreated,
    dateEdited: null,
    attachments: [],
    associatedMessageGuid: message.associatedMessageGuid ?? null,
    associatedMessageType: message.associatedMessageType ?? null,
    threadOriginatorGuid: message.threadOriginatorGuid ?? null,
    chats: chat
      ? [
          {
            guid: chat.guid,
            displayName: chat.displayName,
            chatIdentifier: chat.guid.split(";").slice(2).join(";"),
            participants: chat.participants.map((address) => ({ address })),
          },
        ]
      : [],
  };
}
