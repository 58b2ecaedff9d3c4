import type { BinaryNode } from "@whiskeysockets/baileys";
import type { FakeConnection } from "./connection.js";

/**
 * Gets stanzas to the bot's devices: straight to every logged-in connection, or, while none is
 * connected, queued and delivered at the next login marked `offline` (Baileys then emits them as
 * `append`, not `notify`, as it does for messages that arrived while it was away).
 */
export class Delivery {
  readonly #offline: BinaryNode[] = [];
  #last: BinaryNode | undefined;

  constructor(private readonly connections: () => Iterable<FakeConnection>) {}

  /** The stanza delivered last, for a redelivery. */
  get last(): BinaryNode | undefined {
    return this.#last;
  }

  deliver(stanza: BinaryNode): void {
    this.#last = stanza;
    const online = [...this.connections()].filter((connection) => connection.loggedIn && connection.open);
    if (online.length === 0) {
      this.#offline.push({ ...stanza, attrs: { ...stanza.attrs, offline: "0" } });
      return;
    }
    for (const connection of online) connection.send(stanza);
  }

  /** Sends the queued stanzas to a connection that just logged in; returns how many there were. */
  flushTo(connection: FakeConnection): number {
    const queued = this.#offline.splice(0);
    for (const stanza of queued) connection.send(stanza);
    return queued.length;
  }
}
