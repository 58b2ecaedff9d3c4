import { ChorusError, RateLimitedError } from "@chorus/core";
import type { BinaryNode } from "@whiskeysockets/baileys";
import { DEFAULT_RETRY_AFTER_MS } from "../errors.js";

/** The part of a Baileys socket (`WASocket`) acks arrive on. */
export interface AckSource {
  readonly ws: {
    on(event: string, listener: (node: BinaryNode) => void): unknown;
    readonly isClosed: boolean;
    readonly isClosing: boolean;
  };
}

/** One message waiting for WhatsApp's ack. */
export interface PendingAck {
  /**
   * Resolves once WhatsApp acknowledged the message, which was written to `socket`. Rejects with
   * a ChorusError when WhatsApp refused it, when `socket` closed first, or after the timeout.
   */
  confirmed(socket: AckSource): Promise<void>;
  /** Stops waiting (the message was never written). */
  cancel(): void;
}

interface Waiter {
  readonly what: string;
  /** The ack, when it came before `confirmed()` was called. */
  early?: BinaryNode;
  socket?: AckSource;
  settle?: (ack: BinaryNode | ChorusError) => void;
}

/**
 * WhatsApp answers every `<message>` with `<ack class="message" id="<same id>">`, carrying an
 * `error` code when it refused it. Baileys resolves `sendMessage` once the stanza is written, so
 * this is what says the message (or reaction) really reached WhatsApp.
 */
export class MessageAcks {
  readonly #waiting = new Map<string, Waiter>();

  constructor(private readonly timeoutMs: number) {}

  /** Hears the acks of a socket, and fails what was sent on it and not confirmed when it closes. */
  watch(socket: AckSource): void {
    socket.ws.on("CB:ack,class:message", (node: BinaryNode) => this.#acked(node));
    socket.ws.on("close", () => {
      for (const waiter of this.#waiting.values()) {
        if (waiter.socket === socket) waiter.settle?.(unconfirmed(waiter.what, "the connection closed before its ack"));
      }
    });
  }

  /** Starts listening for the ack of message `id` (`what`: "message", "reaction"); call it before writing it. */
  expect(id: string, what: string): PendingAck {
    const waiter: Waiter = { what };
    this.#waiting.set(id, waiter);
    const forget = () => {
      if (this.#waiting.get(id) === waiter) this.#waiting.delete(id);
    };
    return {
      cancel: forget,
      confirmed: (socket) =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => waiter.settle?.(unconfirmed(what, `no ack within ${this.timeoutMs} ms`)),
            this.timeoutMs,
          );
          waiter.socket = socket;
          waiter.settle = (ack) => {
            clearTimeout(timer);
            forget();
            const failure = ack instanceof ChorusError ? ack : refusal(ack, what);
            if (failure) reject(failure);
            else resolve();
          };
          if (waiter.early) waiter.settle(waiter.early);
          else if (socket.ws.isClosed || socket.ws.isClosing) {
            waiter.settle(unconfirmed(what, "the connection closed before its ack"));
          }
        }),
    };
  }

  #acked(node: BinaryNode): void {
    const id = node.attrs.id;
    const waiter = id === undefined ? undefined : this.#waiting.get(id);
    if (!waiter) return;
    if (waiter.settle) waiter.settle(node);
    else waiter.early = node;
  }
}

/** The error an ack with an `error` code means; undefined for a plain ack. */
function refusal(ack: BinaryNode, what: string): ChorusError | undefined {
  const code = ack.attrs.error;
  if (code === undefined) return undefined;
  const status = Number(code);
  const details = { status: Number.isFinite(status) ? status : code, ack: ack.attrs };
  if (status === 429) {
    return new RateLimitedError(`WhatsApp rate limit on ${what} (ack error 429)`, DEFAULT_RETRY_AFTER_MS, {
      details,
      hint: `WhatsApp gives no Retry-After; wait about ${DEFAULT_RETRY_AFTER_MS / 1000}s before trying again.`,
    });
  }
  return new ChorusError("E_PLATFORM", `WhatsApp refused the ${what}: ack error ${code}`, {
    retryable: status >= 500,
    details,
    ...hintFor(code),
  });
}

function hintFor(code: string): { hint?: string } {
  if (code === "463") {
    return { hint: "WhatsApp restricted this account from starting new chats; write in an existing chat instead." };
  }
  if (code === "479") {
    return { hint: "WhatsApp rejected the stanza (often a stale device session); relink if it persists." };
  }
  return {};
}

/** No ack: the message may or may not have arrived, so it is not sent again. */
function unconfirmed(what: string, why: string): ChorusError {
  return new ChorusError("E_PLATFORM", `WhatsApp did not confirm the ${what} (${why}); it may still have arrived`, {
    retryable: true,
    details: { unconfirmed: true },
    hint: "Check the chat before sending again: WhatsApp may have delivered it.",
  });
}
