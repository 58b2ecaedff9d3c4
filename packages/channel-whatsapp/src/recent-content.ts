import type { proto, WAMessageKey } from "@whiskeysockets/baileys";
import { BoundedMap } from "./bounded.js";

/** Sent messages kept for re-sending; a retry request comes within minutes, not days. */
const REMEMBERED = 500;

/**
 * The content of messages the bot sent recently. When a recipient's device could not decrypt a
 * message it asks for it again, and Baileys re-encrypts what `getMessage` returns.
 */
export class RecentContent {
  readonly #content = new BoundedMap<string, proto.IMessage>(REMEMBERED);

  remember(key: WAMessageKey, message: proto.IMessage | null | undefined): void {
    if (key.remoteJid && key.id && message) this.#content.set(`${key.remoteJid}\n${key.id}`, message);
  }

  /** Baileys' `getMessage`: the content of a message the bot sent, if still remembered. */
  get(key: WAMessageKey): proto.IMessage | undefined {
    return key.remoteJid && key.id ? this.#content.get(`${key.remoteJid}\n${key.id}`) : undefined;
  }
}
