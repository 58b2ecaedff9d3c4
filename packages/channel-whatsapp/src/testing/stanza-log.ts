import type { BinaryNode } from "@whiskeysockets/baileys";
import { childNodes } from "./nodes.js";

/** A node the bot sent to the fake, after the handshake. */
export interface ReceivedStanza {
  tag: string;
  attrs: Record<string, string>;
  /** Tags of the direct children, e.g. `["usync"]` or `["participants", "device-identity"]`. */
  children: string[];
  /** The full node as decoded (ciphertexts stay encrypted). */
  node: BinaryNode;
  /** The sending connection's device number (0 before login). */
  device: number;
  /** Milliseconds since the epoch. */
  at: number;
  /** False when the fake had no handler and answered generically (an empty result, or nothing). */
  handled: boolean;
}

/** Narrows `stanzas()`; every given field must match. */
export interface StanzaFilter {
  tag?: string;
  xmlns?: string;
  type?: string;
  /** Tag of a direct child, e.g. `usync`, `pair-device-sign`, `link_code_companion_reg`. */
  child?: string;
}

/** Every node the bot sent, oldest first. */
export class StanzaLog {
  readonly #entries: ReceivedStanza[] = [];

  record(node: BinaryNode, device: number): void {
    this.#entries.push({
      tag: node.tag,
      attrs: { ...node.attrs },
      children: childNodes(node).map((child) => child.tag),
      node,
      device,
      at: Date.now(),
      handled: true,
    });
  }

  /** Marks the entry of `node` as answered generically. */
  markUnhandled(node: BinaryNode): void {
    const entry = this.#entries.findLast((candidate) => candidate.node === node);
    if (entry) entry.handled = false;
  }

  list(filter: StanzaFilter = {}): ReceivedStanza[] {
    return this.#entries.filter((entry) => matches(entry, filter));
  }
}

function matches(entry: ReceivedStanza, filter: StanzaFilter): boolean {
  if (filter.tag !== undefined && entry.tag !== filter.tag) return false;
  if (filter.xmlns !== undefined && entry.attrs.xmlns !== filter.xmlns) return false;
  if (filter.type !== undefined && entry.attrs.type !== filter.type) return false;
  if (filter.child !== undefined && !entry.children.includes(filter.child)) return false;
  return true;
}
