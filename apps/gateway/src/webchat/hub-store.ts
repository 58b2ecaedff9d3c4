import type { ChannelStore, Logger } from "@chorus/core";
import { type MessageRecord, storedMessageOf, storedReactionsOf, type WebchatModel } from "./model.js";
import { StoreWriter } from "./store-writer.js";
import { json, messageKey, reactionsKey, roomKey, userKey } from "./stored.js";

/**
 * The hub's changes on their way to the channel's store (keys as `stored.ts` lays them out): each
 * change schedules its entry, written with the model's state at write time, or deleted when what
 * it held is gone.
 */
export class HubStore {
  readonly #writer: StoreWriter;

  constructor(
    store: ChannelStore,
    private readonly model: WebchatModel,
    options: { logger: Logger; delayMs?: number },
  ) {
    this.#writer = new StoreWriter(store, options);
  }

  /** A person arrived or was renamed. */
  user(id: string): void {
    this.#writer.schedule(userKey(id), () => {
      const user = this.model.users.get(id);
      return user ? { name: user.name } : undefined;
    });
  }

  /** A room was created or someone joined it. */
  room(id: string): void {
    this.#writer.schedule(roomKey(id), () => {
      const room = this.model.rooms.get(id);
      return room ? { members: [...room.members] } : undefined;
    });
  }

  /** A message was written, or dropped (no longer kept): then its reactions go with it. */
  message(message: MessageRecord): void {
    const kept = () => this.model.message(message.id) === message;
    this.#writer.schedule(messageKey(message.room, message.seq), () =>
      kept() ? json(storedMessageOf(message)) : undefined,
    );
    if (!kept() && message.reactions.size > 0) this.reactions(message);
  }

  /** The reactions on a message changed. */
  reactions(message: MessageRecord): void {
    this.#writer.schedule(reactionsKey(message.room, message.seq), () =>
      this.model.message(message.id) === message && message.reactions.size > 0 ? storedReactionsOf(message) : undefined,
    );
  }

  /** Resolves once the store holds every change so far. */
  flush(): Promise<void> {
    return this.#writer.flush();
  }
}
