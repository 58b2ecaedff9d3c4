import type { Companions } from "./companions.js";
import type { FakeConnection } from "./connection.js";
import type { Delivery } from "./delivery.js";
import type { Directory } from "./directory.js";
import type { IqFaults, MessageFault } from "./faults.js";
import type { FakeMediaHost } from "./media-host.js";
import type { MessageStore } from "./message-store.js";
import type { Outage } from "./outage.js";
import type { StanzaLog } from "./stanza-log.js";

/** Something the fake could not make sense of (e.g. a ciphertext no device could decrypt). */
export interface FakeProblem {
  message: string;
  /** Milliseconds since the epoch. */
  at: number;
  cause?: unknown;
}

/** The fake's shared state, handed to the handlers of each kind of stanza. */
export interface FakeContext {
  readonly directory: Directory;
  readonly store: MessageStore;
  readonly companions: Companions;
  readonly connections: Set<FakeConnection>;
  readonly delivery: Delivery;
  readonly log: StanzaLog;
  /** The media host (uploads, downloads) that `media_conn` names. */
  readonly media: FakeMediaHost;
  readonly iqFaults: IqFaults;
  /** Faults for the next messages the bot sends, one each, in order. */
  readonly messageFaults: MessageFault[];
  readonly problems: FakeProblem[];
  /** Pending `<failure reason>` codes for the next logins. */
  readonly loginFailures: number[];
  logins: number;
  /** How the whole server misbehaves now (`fault(kind)` until `heal()`), or undefined. */
  outage: Outage | undefined;
}

/** Notes a problem for `fake.problems`. */
export function reportProblem(ctx: FakeContext, message: string, cause?: unknown): void {
  ctx.problems.push({ message, at: Date.now(), ...(cause === undefined ? {} : { cause }) });
}
