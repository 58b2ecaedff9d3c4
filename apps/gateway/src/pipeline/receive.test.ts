import type { InboundMessageEvent } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { useCountedTestState } from "../testing/index.js";
import { InboxWriter } from "./receive.js";

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
