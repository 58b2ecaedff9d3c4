import type { JsonValue, MessageRef } from "./message-ref.js";

/** What a running instance needs to mint `MessageRef`s: its channel, account and the bot's own id. */
export interface RefScope {
  /** The plugin id (`telegram`). */
  readonly channel: string;
  readonly accountId: string;
  /** The bot's user id on the platform, learned at start; tells the bot's own messages apart. */
  readonly botId: string;
}

/** The parts of a message a ref is minted from. */
export interface RefParts {
  readonly conversationId: string;
  readonly messageId: string;
  readonly threadId?: string | undefined;
  /** Whether the bot sent it; derived from `authorId` when that is given instead. */
  readonly fromBot?: boolean | undefined;
  /** The author's platform id: `fromBot` is `authorId === scope.botId`. */
  readonly authorId?: string | undefined;
  /** Platform specifics the plugin needs to address the message again (DESIGN §2.3). */
  readonly data?: { readonly [key: string]: JsonValue } | undefined;
}

/** The `MessageRef` of one message of this instance (DESIGN §2.3). */
export function mintRef(scope: RefScope, parts: RefParts): MessageRef {
  const fromBot = parts.fromBot ?? (parts.authorId === undefined ? undefined : parts.authorId === scope.botId);
  return {
    channel: scope.channel,
    accountId: scope.accountId,
    conversationId: parts.conversationId,
    messageId: parts.messageId,
    ...(parts.threadId !== undefined ? { threadId: parts.threadId } : {}),
    ...(fromBot !== undefined ? { fromBot } : {}),
    ...(parts.data !== undefined ? { data: parts.data } : {}),
  };
}
