import type { ChannelStore } from "@chorus/core";

/** How long the record of a message the bot sent is kept. */
export const OWN_MESSAGES_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * GUIDs of the bot's own messages (sent through Chorus, or seen as `isFromMe` echoes), in the
 * channel's store under `ownMessages/<guid>`. Still needed next to the gateway's message index:
 * a BlueBubbles reply names only the GUID it answers (`threadOriginatorGuid`), and whether that
 * was the bot's decides `replyTo.fromBot`, which wakes the agent in groups (DESIGN §4). A GUID the
 * record does not know is asked of the server.
 */
export class OwnMessages {
  constructor(private readonly store: ChannelStore) {}

  /** The store key of a message GUID. */
  static key(guid: string): string {
    return `ownMessages/${encodeURIComponent(guid)}`;
  }

  /** Whether the bot sent the message, as far as the record knows. */
  async has(guid: string): Promise<boolean> {
    return (await this.store.get(OwnMessages.key(guid))) === true;
  }

  /** Remembers a GUID of the bot's. */
  async add(guid: string): Promise<void> {
    await this.store.set(OwnMessages.key(guid), true, { ttlMs: OWN_MESSAGES_TTL_MS });
  }
}
