import type { InboundMessageEvent } from "@chorus/core";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { ChannelEntry } from "../channels/index.js";
import { type OperatorEvent, OperatorEvents } from "../events/index.js";
import { GatewayMetrics } from "../metrics/index.js";
import { useCountedTestState } from "../testing/index.js";
import { createReceive, InboxWriter } from "./receive.js";
import { StateOutage } from "./state-outage.js";

const message = (account: string, n: number): InboundMessageEvent =>
  ({
    type: "message",
    eventId: `${account}-${n}`,
    ref: { channel: "telegram", accountId: account, conversationId: "g", messageId: String(n) },
    conversation: { kind: "group", id: "g" },
    sender: { id: "ann" },
    text: `message ${n}`,
  }) as InboundMessageEvent;

describe("InboxWriter: events of one tick, across accounts", () => {
  const test = useCountedTestState();

  const accept = (writer: InboxWriter, account: string, n: number) =>
    writer.accept("telegram", account, message(account, n), `session-${account}`);

  it("share one durable commit; a redelivery among them resolves undefined", async () => {
    let commits = 0;
    const writer = new InboxWriter(test.state, undefined, () => commits++);
    const ids = await Promise.all([accept(writer, "a", 1), accept(writer, "b", 1), accept(writer, "a", 2)]);
    expect(ids.every((id) => typeof id === "number")).toBe(true);
    expect(test.counted.durable).toBe(1);
    expect(commits).toBe(1);
    expect(await Promise.all([accept(writer, "a", 2), accept(writer, "b", 2)])).toEqual([
      undefined,
      expect.any(Number),
    ]);
    expect(test.counted.durable).toBe(2);
    expect((await test.state.inbox.received()).map((row) => row.eventId)).toEqual(["a-1", "b-1", "a-2", "b-2"]);
  });

  it("an account whose fence refuses fails only its own events; the others are committed", async () => {
    const writer = new InboxWriter(test.state, (key) =>
      key === "telegram:lost"
        ? async () => {
            throw new Error("lease lost");
          }
        : async () => undefined,
    );
    const [kept, lost, alsoKept] = await Promise.allSettled([
      accept(writer, "kept", 1),
      accept(writer, "lost", 1),
      accept(writer, "other", 1),
    ]);
    expect(kept).toMatchObject({ status: "fulfilled", value: expect.any(Number) });
    expect(alsoKept).toMatchObject({ status: "fulfilled", value: expect.any(Number) });
    expect(lost).toMatchObject({ status: "rejected", reason: expect.objectContaining({ message: "lease lost" }) });
    expect((await test.state.inbox.received()).map((row) => row.eventId)).toEqual(["kept-1", "other-1"]);
  });
});

describe("createReceive: each event's outcome at the receive step, counted and said to the operator", () => {
  const test = useCountedTestState();
  /** A channel account as the receive step sees it (the parts it reads). */
  const entry = (accountId: string) => ({ plugin: { id: "telegram" }, accountId }) as ChannelEntry;
  const direct = (n: number): InboundMessageEvent =>
    ({ ...message("a", n), conversation: { kind: "direct", id: "dm-ann" } }) as InboundMessageEvent;

  it("committed, then a redelivery dropped (counted on its row), then a commit refused (rejected)", async () => {
    const metrics = new GatewayMetrics();
    const operator = new OperatorEvents();
    const said: OperatorEvent[] = [];
    operator.listen((event) => said.push(event));
    const woken: string[] = [];
    const receive = createReceive({
      inbox: new InboxWriter(test.state, (key) =>
        key === "telegram:lost"
          ? async () => {
              throw new Error("lease lost");
            }
          : undefined,
      ),
      sessionKeyOf: () => "agent:main:telegram:dm:ann",
      wake: (key) => woken.push(key),
      reaction: async () => undefined,
      metrics,
      operator,
      outage: new StateOutage(pino({ level: "silent" })),
      logger: pino({ level: "silent" }),
    });
    await receive(entry("a"), direct(1));
    await receive(entry("a"), direct(1));
    await expect(receive(entry("lost"), direct(2))).rejects.toThrow("lease lost");

    expect([
      metrics.inbound.value(["telegram", "a", "committed"]),
      metrics.inbound.value(["telegram", "a", "duplicate"]),
      metrics.inbound.value(["telegram", "lost", "refused"]),
    ]).toEqual([1, 1, 1]);
    expect(metrics.refusals("telegram", "lost", 0)).toMatchObject({ count: 1, lastError: "lease lost" });
    expect(said).toEqual([
      expect.objectContaining({
        type: "operator",
        outcome: "duplicate",
        channel: "telegram",
        account: "a",
        eventId: "a-1",
        messageId: "1",
        conversationId: "dm-ann",
        senderId: "ann",
      }),
      expect.objectContaining({
        outcome: "refused",
        account: "lost",
        eventId: "a-2",
        reason: "the commit failed: lease lost",
      }),
    ]);
    const [row] = await test.state.db.all<{ message_id: string; redeliveries: number }>(
      "SELECT message_id, redeliveries FROM inbox",
    );
    expect(row).toEqual({ message_id: "1", redeliveries: 1 });
    expect(woken).toEqual(["agent:main:telegram:dm:ann"]);
  });
});
