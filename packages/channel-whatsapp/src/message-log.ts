import { join } from "node:path";
import { BoundedMap, BoundedSet } from "./bounded.js";
import type { WhatsAppMessageAddress } from "./ref.js";
import { JsonStateFile } from "./state-file.js";

/** Messages remembered across restarts; the oldest are forgotten first. */
const REMEMBERED = 5_000;
/** Enough of a message's text to show it as the quoted part of a reply. */
const KEPT_TEXT = 300;

/** A message the instance received or sent: its address, whether the bot sent it, some of its text. */
export interface LoggedMessage extends WhatsAppMessageAddress {
  /** Sent through Chorus (as opposed to received, or typed by the owner on the phone). */
  readonly fromBot: boolean;
  readonly text?: string;
}

/**
 * The messages this account saw and sent, persisted in `stateDir`. WhatsApp has no "fetch a
 * message" call, so this record is what completes a group message's author for reactions and
 * quotes after a restart, and what recognises the bot's own messages when they come back.
 */
export class MessageLog {
  readonly #file: JsonStateFile<LoggedMessage[]>;
  readonly #messages = new BoundedMap<string, LoggedMessage>(REMEMBERED);
  readonly #sent = new BoundedSet<string>(REMEMBERED);

  constructor(stateDir: string) {
    this.#file = new JsonStateFile(join(stateDir, "messages.json"), (raw) =>
      Array.isArray(raw) ? raw.filter(isLoggedMessage) : [],
    );
  }

  /** Reads the record an earlier run left. */
  async load(): Promise<void> {
    for (const message of await this.#file.read()) this.#remember(message);
  }

  /** A message of a chat, when it was seen or sent. */
  get(remoteJid: string, id: string): LoggedMessage | undefined {
    return this.#messages.get(keyOf(remoteJid, id));
  }

  /** Whether the bot sent a message with this id. */
  sentByBot(id: string): boolean {
    return this.#sent.has(id);
  }

  /** Remembers a message and persists the record (in the background; `flush` waits for it). */
  record(message: LoggedMessage): Promise<void> {
    const text = message.text === undefined ? undefined : message.text.slice(0, KEPT_TEXT);
    this.#remember({ ...message, ...(text !== undefined ? { text } : {}) });
    return this.#file.save(() => [...this.#messages.entries()].map(([, value]) => value));
  }

  /** Resolves when the record on disk is up to date. */
  flush(): Promise<void> {
    return this.#file.flush();
  }

  #remember(message: LoggedMessage): void {
    this.#messages.set(keyOf(message.remoteJid, message.id), message);
    if (message.fromBot) this.#sent.add(message.id);
  }
}

function keyOf(remoteJid: string, id: string): string {
  return `${remoteJid}\n${id}`;
}

function isLoggedMessage(value: unknown): value is LoggedMessage {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.remoteJid === "string" &&
    typeof record.id === "string" &&
    typeof record.fromMe === "boolean" &&
    typeof record.fromBot === "boolean" &&
    (record.participant === undefined || typeof record.participant === "string") &&
    (record.text === undefined || typeof record.text === "string")
  );
}
