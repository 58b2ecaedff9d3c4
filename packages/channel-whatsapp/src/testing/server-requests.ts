import { randomBytes } from "node:crypto";
import type { BinaryNode } from "@whiskeysockets/baileys";
import type { FakeConnection } from "./connection.js";
import { fakeProtocolError } from "./errors.js";

/** How long the fake waits for the client to answer an iq the server sent. */
const ANSWER_TIMEOUT_MS = 15_000;

interface Pending {
  connection: FakeConnection;
  resolve: (answer: BinaryNode) => void;
  reject: (error: Error) => void;
}

/** Iqs the server sends to a client (pair-device, pair-success) and the answers it waits for. */
export class ServerRequests {
  readonly #pending = new Map<string, Pending>();

  /** A fresh stanza id, in WhatsApp's style. */
  static id(): string {
    return randomBytes(8).toString("hex").toUpperCase();
  }

  /** Sends `iq` and resolves with the client's `result` (or rejects on `error`, close or timeout). */
  ask(connection: FakeConnection, iq: BinaryNode): Promise<BinaryNode> {
    const id = iq.attrs.id ?? ServerRequests.id();
    return new Promise<BinaryNode>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(fakeProtocolError(`the client did not answer <iq id="${id}"> within ${ANSWER_TIMEOUT_MS}ms`));
      }, ANSWER_TIMEOUT_MS);
      timer.unref();
      const done =
        <T>(settle: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          this.#pending.delete(id);
          settle(value);
        };
      this.#pending.set(id, { connection, resolve: done(resolve), reject: done(reject) });
      connection.send({ ...iq, attrs: { ...iq.attrs, id } });
    });
  }

  /** Takes a client's `result`/`error` iq; false when it answers nothing the server asked. */
  answer(iq: BinaryNode): boolean {
    const pending = this.#pending.get(iq.attrs.id ?? "");
    if (!pending) return false;
    if (iq.attrs.type === "error")
      pending.reject(fakeProtocolError(`the client answered <iq id="${iq.attrs.id}"> with an error`));
    else pending.resolve(iq);
    return true;
  }

  /** Rejects what waits on a connection that closed. */
  closed(connection: FakeConnection): void {
    for (const pending of [...this.#pending.values()]) {
      if (pending.connection === connection)
        pending.reject(fakeProtocolError("the client disconnected before answering"));
    }
  }
}
