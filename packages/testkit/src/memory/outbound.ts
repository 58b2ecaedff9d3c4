import type { HttpClient } from "@chorus/channel-kit";
import { type ChannelInstance, type MessageRef, type OutboundMessage, type RefScope, splitText } from "@chorus/core";
import { messageRef } from "./inbound.js";
import type { WireMessage, WireUpload } from "./wire.js";

/** What sending needs of its instance. */
export interface OutboundOptions {
  client: HttpClient;
  scope: () => RefScope;
  maxTextLength: number;
  /** Uploads one medium's bytes (`upload.ts`). */
  upload: (medium: NonNullable<OutboundMessage["media"]>[number]) => Promise<WireUpload>;
}

/** Sending: text split at the limit, and media (uploaded first, then posted by upload id) or a pin on the last part. */
export function createOutbound(options: OutboundOptions): Pick<ChannelInstance, "send"> {
  const { client, scope } = options;
  return {
    async send(conversation, message) {
      const media = message.media ?? [];
      // Each medium's bytes first: a message is posted only once all of them are on the platform.
      const uploads: WireUpload[] = [];
      for (const medium of media) uploads.push(await options.upload(medium));
      const parts = splitText(message.text, options.maxTextLength);
      let first: MessageRef | undefined;
      for (const [index, text] of parts.entries()) {
        const last = index === parts.length - 1;
        const sent = await client.request<WireMessage>({
          method: "POST",
          path: `/v1/conversations/${encodeURIComponent(conversation.id)}/messages`,
          operation: `send a message to ${conversation.id}`,
          json: {
            text,
            ...(index === 0 && message.replyTo ? { replyToId: message.replyTo.messageId } : {}),
            ...(conversation.threadId !== undefined ? { threadId: conversation.threadId } : {}),
            ...(index === 0 && message.mentions ? { mentions: message.mentions } : {}),
            ...(last && uploads.length > 0
              ? {
                  media: uploads.map((upload, i) => ({
                    uploadId: upload.id,
                    kind: media[i]?.kind,
                    ...(media[i]?.caption !== undefined ? { caption: media[i]?.caption } : {}),
                  })),
                }
              : {}),
            ...(last && message.location ? { location: message.location } : {}),
          },
        });
        first ??= messageRef(sent, scope());
      }
      return first as MessageRef;
    },
  };
}
