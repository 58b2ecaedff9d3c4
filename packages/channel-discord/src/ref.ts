import { type MessageRef, mintRef, type RefScope } from "@chorus/core";

/** Where a Discord message lives: a channel, or a thread under its parent channel. */
export interface MessagePlace {
  /** The channel the message is in (the thread's own id for a thread message). */
  readonly channelId: string;
  /** The parent text channel when `channelId` is a thread. */
  readonly parentId?: string | null;
}

/** The `MessageRef` of a Discord message (DESIGN §2.3): threads keep their parent as conversation. */
export function discordMessageRef(
  message: { id: string; authorId?: string } & MessagePlace,
  scope: RefScope,
): MessageRef {
  return mintRef(scope, {
    conversationId: message.parentId ?? message.channelId,
    messageId: message.id,
    ...(message.parentId ? { threadId: message.channelId } : {}),
    ...(message.authorId ? { authorId: message.authorId } : {}),
    data: { channelId: message.channelId },
  });
}

/** The channel to call for a ref (the thread, when it is in one). */
export function channelOfRef(ref: MessageRef): string {
  const stored = ref.data?.channelId;
  return typeof stored === "string" ? stored : (ref.threadId ?? ref.conversationId);
}
