import type { BinaryNode } from "@whiskeysockets/baileys";
import { childNodes } from "./nodes.js";

/** Which iqs a fault hits; every given field must match. */
export interface IqMatch {
  xmlns?: string;
  type?: string;
  /** Tag of the iq's first child, e.g. `query`, `participating`, `usync`. */
  child?: string;
  /** The iq's `to`, e.g. a group JID. */
  to?: string;
}

/** The `<error code text/>` WhatsApp answers with, e.g. `{ code: 429, text: "rate-overlimit" }`. */
export interface IqFailure {
  code: number;
  text: string;
}

interface PendingIqFault {
  match: IqMatch;
  failure: IqFailure;
  remaining: number;
}

/** Queued iq errors, consumed in the order they were added. */
export class IqFaults {
  readonly #pending: PendingIqFault[] = [];

  add(match: IqMatch, failure: IqFailure, times: number): void {
    this.#pending.push({ match, failure, remaining: times });
  }

  /** The failure to answer `iq` with, if a queued fault matches it (and uses one of its turns). */
  take(iq: BinaryNode): IqFailure | undefined {
    const index = this.#pending.findIndex((fault) => matches(iq, fault.match));
    const fault = this.#pending[index];
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#pending.splice(index, 1);
    return fault.failure;
  }
}

function matches(iq: BinaryNode, match: IqMatch): boolean {
  if (match.xmlns !== undefined && iq.attrs.xmlns !== match.xmlns) return false;
  if (match.type !== undefined && iq.attrs.type !== match.type) return false;
  if (match.to !== undefined && iq.attrs.to !== match.to) return false;
  if (match.child !== undefined && childNodes(iq)[0]?.tag !== match.child) return false;
  return true;
}

/**
 * What the fake does to a message the bot sends instead of filing and acking it: refuse it
 * (`<ack error="…">`, nothing filed), or file it and never ack (an ack lost on the way).
 */
export type MessageFault = { kind: "refuse"; error: number } | { kind: "no-ack" };
