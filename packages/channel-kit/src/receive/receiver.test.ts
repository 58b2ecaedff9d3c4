import { ChorusError, type InboundEvent, type InboundMessageEvent, type Logger } from "@chorus/core";
import { describe, expect, it } from "vitest";

import { acknowledges, createReceiver, type ReceiverOptions } from "./receiver.js";

interface Line {
  level: "debug" | "info" | "warn" | "error";
  fields: Record<string, unknown>;
  message: string;
}

/** Resolves once `done()` holds (checked every few ms), or fails after 5 s. */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("the condition never held");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A logger that keeps its lines. */
function recordingLogger(lines: Line[]): Logger {
  const at =
    (level: Line["level"]) =>
    (fields: unknown, message?: string): void => {
      lines.push({ level, fields: (fields ?? {}) as Record<string, unknown>, message: message ?? String(fields) });
    };
  const logger: Logger = {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    child: () => logger,
  };
  return logger;
}

const event = (id: string): InboundMessageEvent => ({
  type: "message",
  eventId: id,
  conversation: { id: "c1", kind: "direct" },
  sender: { id: "ann", name: "Ann" },
  text: `text ${id}`,
  mentions: { bot: false, others: [] },
  ref: { channel: "acme", accountId: "default", conversationId: "c1", messageId: id },
  timestamp: 1,
});

/** A host whose commits fail for the first `failures` emits, then succeed; it records every attempt. */
function host(
  failures = 0,
  error: unknown = new ChorusError("E_DISABLED", "the lease of acme:default is held by gw-2"),
) {
  const attempts: string[] = [];
  const committed: string[] = [];
  let left = failures;
  return {
    attempts,
    committed,
    emit: async (e: InboundEvent) => {
      attempts.push(e.eventId);
      if (left > 0) {
        left--;
        throw error;
      }
      committed.push(e.eventId);
    },
  };
}

function receiverOf<D>(
  options: Partial<ReceiverOptions<D>> & Pick<ReceiverOptions<D>, "emit" | "normalize">,
  lines: Line[] = [],
) {
  return createReceiver<D>({
    channel: "acme",
    logger: recordingLogger(lines),
    redelivery: "platform",
    backoff: { initialMs: 1, maxMs: 2, jitter: 0 },
    ...options,
  });
}

describe("createReceiver", () => {
  it("a delivery whose event is committed: acknowledged", async () => {
    const gateway = host();
    const receiver = receiverOf({ emit: gateway.emit, normalize: (d: string) => event(d) });
    const receipt = await receiver.receive("e1");
    expect(receipt).toBe("committed");
    expect(acknowledges(receipt)).toBe(true);
    expect(gateway.committed).toEqual(["e1"]);
  });

  it("nothing for the gateway (an echo): acknowledged, nothing emitted", async () => {
    const gateway = host();
    const receipt = await receiverOf({ emit: gateway.emit, normalize: () => undefined }).receive("echo");
    expect(receipt).toBe("ignored");
    expect(acknowledges(receipt)).toBe(true);
    expect(gateway.attempts).toEqual([]);
  });

  it("unreadable: acknowledged (delivering it again would not help), with a warning naming the problem and its receipt", async () => {
    const lines: Line[] = [];
    const gateway = host();
    const receiver = receiverOf(
      {
        emit: gateway.emit,
        normalize: () => {
          throw new SyntaxError("Unexpected token < in JSON at position 0");
        },
      },
      lines,
    );
    expect(await receiver.receive("<html>")).toBe("unreadable");
    expect(lines).toEqual([
      expect.objectContaining({
        level: "warn",
        message: "acme: skipped a delivery it cannot read: Unexpected token < in JSON at position 0",
        // The field the gateway counts unreadable deliveries by.
        fields: expect.objectContaining({ receipt: "unreadable", problem: "Unexpected token < in JSON at position 0" }),
      }),
    ]);
    expect(gateway.attempts).toEqual([]);
  });

  it("a commit the gateway refuses (a ChorusError) is not taken for unreadable: not acknowledged, the platform redelivers", async () => {
    const lines: Line[] = [];
    const gateway = host(1);
    const receiver = receiverOf({ emit: gateway.emit, normalize: (d: string) => event(d) }, lines);
    const receipt = await receiver.receive("e1");
    expect(receipt).toBe("not-committed");
    expect(acknowledges(receipt)).toBe(false);
    expect(lines.map((l) => [l.level, l.message])).toEqual([
      [
        "warn",
        "acme: the gateway could not commit an event; it is not acknowledged, so the platform delivers it again",
      ],
    ]);
    // The platform's redelivery: committed once.
    expect(await receiver.receive("e1")).toBe("committed");
    expect(gateway.committed).toEqual(["e1"]);
  });

  it("a lookup that failed for now (a retryable ChorusError while normalising): not acknowledged", async () => {
    const gateway = host();
    const receiver = receiverOf({
      emit: gateway.emit,
      normalize: () => {
        throw new ChorusError("E_PLATFORM", "users.info answered 503", { retryable: true });
      },
    });
    expect(await receiver.receive("e1")).toBe("not-committed");
  });

  it("no redelivery on the platform: a delivery whose reading failed for now is read again, then committed", async () => {
    const gateway = host();
    let reads = 0;
    const receiver = receiverOf({
      emit: gateway.emit,
      redelivery: "keep",
      normalize: (d: string) => {
        reads++;
        if (reads < 3) throw new ChorusError("E_PLATFORM", "the connection dropped", { retryable: true });
        return event(d);
      },
    });
    expect(await receiver.receive("e1")).toBe("committed");
    expect(reads).toBe(3);
    expect(gateway.committed).toEqual(["e1"]);
  });

  it("no redelivery on the platform: the event is kept and emitted again until it is committed, once", async () => {
    const lines: Line[] = [];
    const gateway = host(3, new Error("SQLITE_BUSY: database is locked"));
    const receiver = receiverOf({ emit: gateway.emit, normalize: (d: string) => event(d), redelivery: "keep" }, lines);
    const pending = receiver.receive("e1");
    expect(await pending).toBe("committed");
    expect(gateway.attempts).toEqual(["e1", "e1", "e1", "e1"]);
    expect(gateway.committed).toEqual(["e1"]);
    expect(receiver.kept).toBe(0);
    expect(lines.map((l) => l.level)).toEqual(["warn", "info"]);
    expect(lines[1]?.fields).toMatchObject({ eventId: "e1", attempts: 4 });
  });

  it("settleWhenKept: resolves kept as soon as the event is kept (a webhook is answered), and commits it after", async () => {
    const gateway = host(2);
    const receiver = receiverOf({
      emit: gateway.emit,
      normalize: (d: string) => event(d),
      redelivery: "keep",
      settleWhenKept: true,
    });
    const receipt = await receiver.receive("e1");
    expect(receipt).toBe("kept");
    expect(acknowledges(receipt)).toBe(true);
    expect(gateway.committed).toEqual([]);
    await until(() => gateway.committed.length === 1);
    expect(gateway.committed).toEqual(["e1"]);
    // Committed at once: the usual receipt.
    expect(await receiver.receive("e2")).toBe("committed");
  });

  it("keeps at most maxKept events: one more that fails is dropped, loudly", async () => {
    const lines: Line[] = [];
    const gateway = host(Number.POSITIVE_INFINITY);
    const abort = new AbortController();
    const receiver = receiverOf(
      {
        emit: gateway.emit,
        normalize: (d: string) => event(d),
        redelivery: "keep",
        maxKept: 1,
        signal: abort.signal,
        backoff: { initialMs: 60_000, maxMs: 60_000, jitter: 0 },
      },
      lines,
    );
    const first = receiver.receive("e1");
    await expect(receiver.receive("e2")).resolves.toBe("not-committed");
    expect(receiver.kept).toBe(1);
    expect(lines.find((l) => l.level === "error")?.message).toBe(
      "acme: the gateway could not commit an event and 1 are kept already: this one is dropped",
    );
    const attemptsBefore = gateway.attempts.length;
    abort.abort();
    await expect(first).resolves.toBe("not-committed");
    // Stopping ends the waiting: the kept event is not emitted once more on the way out.
    expect(gateway.attempts.length).toBe(attemptsBefore);
    expect(receiver.kept).toBe(0);
    expect(lines.at(-1)?.message).toBe("acme: stopped with an event the gateway never committed: it is dropped");
  });

  it("several events of one delivery are emitted in order without waiting for each other (the gateway commits them together)", async () => {
    const emitted: string[] = [];
    const release: (() => void)[] = [];
    const receiver = receiverOf({
      emit: (e) => {
        emitted.push(e.eventId);
        return new Promise<void>((resolve) => release.push(resolve));
      },
      normalize: () => [event("a"), event("b"), event("c")],
    });
    const pending = receiver.receive("batch");
    await new Promise((resolve) => setImmediate(resolve));
    // All three are with the gateway before any commit resolved.
    expect(emitted).toEqual(["a", "b", "c"]);
    for (const done of release) done();
    expect(await pending).toBe("committed");
  });

  it("one of several events not committed: the delivery is not acknowledged", async () => {
    const receiver = receiverOf({
      emit: async (e) => {
        if (e.eventId === "b") throw new Error("disk full");
      },
      normalize: () => [event("a"), event("b")],
    });
    expect(await receiver.receive("batch")).toBe("not-committed");
  });
});
