import { BoundedMap } from "@chorus/channel-kit";

/** Chats whose timer is remembered. */
const REMEMBERED = 5_000;

/**
 * The disappearing-message timer of each chat, as its messages and group metadata state it.
 * Replies carry the same timer, so the bot's messages vanish like everyone else's.
 */
export class DisappearingTimers {
  readonly #seconds = new BoundedMap<string, number>(REMEMBERED);

  /** Records a chat's timer in seconds (0 or absent: messages stay). */
  learn(jid: string, seconds: number | null | undefined): void {
    if (typeof seconds !== "number" || !Number.isFinite(seconds)) return;
    if (seconds > 0) this.#seconds.set(jid, seconds);
    else this.#seconds.delete(jid);
  }

  /** The chat's timer in seconds, when it has one. */
  of(jid: string): number | undefined {
    return this.#seconds.get(jid);
  }
}
