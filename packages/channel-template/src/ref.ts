import type { MessageRef } from "@chorus/core";

/** Who this instance is: what every `MessageRef` and every own-echo check needs. */
export interface Identity {
  /** The plugin id (`acme`). */
  readonly channel: string;
  readonly accountId: string;
  /** The bot's Acme user id, learned from `GET /v1/me` at start. */
  readonly botId: string;
}

/**
 * The `MessageRef` of an Acme message (DESIGN §2.3). Acme addresses a message by its id alone,
 * so `data` stays empty; a platform that needs more (a chat id, an author, a timestamp) puts it
 * in `data` here, once, so every later reaction can find the message again after a restart.
 */
export function acmeMessageRef(
  message: { id: string; conversationId: string; authorId: string },
  who: Identity,
): MessageRef {
  return {
    channel: who.channel,
    accountId: who.accountId,
    conversationId: message.conversationId,
    messageId: message.id,
    fromBot: message.authorId === who.botId,
  };
}
