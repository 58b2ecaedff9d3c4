import { EventEmitter } from "node:events";
import type { BinaryNode } from "@whiskeysockets/baileys";
import { describe, expect, it } from "vitest";
import { type AckSource, MessageAcks } from "./acks.js";

// Only the timing corners of our own waiting logic, which the wire cannot be made to hit on
// purpose; what acks mean (refusals, rate limits, lost acks) is tested through the real Baileys
// in acks.wire.test.ts. A socket here is what Baileys' WebSocketClient is: an EventEmitter
// that emits each decoded node under `CB:<tag>,<attr>:<value>`.
class Socket implements AckSource {
  readonly ws = Object.assign(new EventEmitter(), { isClosed: false, isClosing: false });

  ack(id: string, error?: string): void {
    const node: BinaryNode = { tag: "ack", attrs: { class: "message", id, ...(error ? { error } : {}) } };
    this.ws.emit("CB:ack,class:message", node);
  }
}

describe("MessageAcks", () => {
  it("an ack that arrives before the caller starts waiting still confirms", async () => {
    const acks = new MessageAcks(60_000);
    const socket = new Socket();
    acks.watch(socket);
    const pending = acks.expect("3EB0AAA", "message");
    socket.ack("3EB0AAA");
    await expect(pending.confirmed(socket)).resolves.toBeUndefined();
  });

  it("a closing socket fails only what was written to it", async () => {
    const acks = new MessageAcks(60_000);
    const [old, current] = [new Socket(), new Socket()];
    acks.watch(old);
    acks.watch(current);
    const lost = acks.expect("3EB0DDD", "reaction").confirmed(old);
    const kept = acks.expect("3EB0EEE", "message").confirmed(current);
    old.ws.emit("close");
    await expect(lost).rejects.toMatchObject({
      code: "E_PLATFORM",
      retryable: true,
      message:
        "WhatsApp did not confirm the reaction (the connection closed before its ack); it may still have arrived",
    });
    current.ack("3EB0EEE");
    await expect(kept).resolves.toBeUndefined();
  });

  it("an id no one waits for any more is ignored", async () => {
    const acks = new MessageAcks(100);
    const socket = new Socket();
    acks.watch(socket);
    const cancelled = acks.expect("3EB0FFF", "message");
    cancelled.cancel();
    socket.ack("3EB0FFF");
    await expect(acks.expect("3EB0FFF", "message").confirmed(socket)).rejects.toMatchObject({
      message: expect.stringContaining("no ack within 100 ms"),
    });
  });
});
