import type { InboundEvent } from "@chorus/core";
import type { RunningChannel } from "@chorus/testkit";
import { waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startOnFake, stopOnFake } from "./test-support.test-util.js";
import type { FakeBlueBubbles } from "./testing/index.js";

const GROUP = "iMessage;+;chat100200300";
const ANN = "+15550001111";
const isText = (text: string) => (event: InboundEvent) => event.type === "message" && event.text === text;

let fake: FakeBlueBubbles;
let running: RunningChannel;
let hookUrl: string;

beforeEach(async () => {
  ({ fake, running, hookUrl } = await startOnFake("s3cret-s3cret-s3cret"));
  fake.addChat({ guid: GROUP, displayName: "Team", participants: [ANN] });
});

afterEach(() => stopOnFake({ fake, running }));

describe("receive: BlueBubbles never posts a webhook again, so an event whose commit failed is kept", () => {
  it("a commit that fails once: answered 202 once kept, emitted again, committed once", async () => {
    running.refuseCommit(isText("refused once"));
    const hook = fake.userSends({ chatGuid: GROUP, from: ANN, text: "refused once" });
    // The platform's one delivery (to every registered webhook), answered once the event is kept.
    expect(await fake.deliver(hook)).toEqual([202]);
    await running.waitForEvent(isText("refused once"));
    expect(running.refused.filter(isText("refused once"))).toHaveLength(1);
    expect(running.events.filter(isText("refused once"))).toHaveLength(1);
    await waitFor(() => running.logs.at("info").some((r) => r.message.includes("is committed")));
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([
      "imessage: the gateway could not commit an event; it is kept and emitted again until it is",
    ]);
    expect(running.logs.at("info").find((r) => r.message.includes("is committed"))?.fields).toMatchObject({
      eventId: `message:${hook.guid}`,
      attempts: 2,
    });
  });

  it("a committed webhook is answered 200 only once the gateway committed it", async () => {
    expect(await fake.deliver(fake.userSends({ chatGuid: GROUP, from: ANN, text: "plain" }), hookUrl)).toEqual([200]);
    expect(running.events.filter(isText("plain"))).toHaveLength(1);
  });

  it("an event still kept when the channel stops is let go, loudly", async () => {
    running.refuseCommit(isText("never committed"), 1_000);
    const hook = fake.userSends({ chatGuid: GROUP, from: ANN, text: "never committed" });
    expect(await fake.deliver(hook, hookUrl)).toEqual([202]);
    await running.stop();
    expect(running.logs.at("error").map((r) => r.message)).toContain(
      "imessage: stopped with an event the gateway never committed: it is dropped",
    );
    expect(running.events).toEqual([]);
  });

  it("a webhook it cannot read: the receiver's warning names the problem; answered 400 (BlueBubbles only logs it)", async () => {
    expect(await fake.deliverUnparseable()).toEqual([400]);
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([
      expect.stringMatching(
        /^imessage: skipped a delivery it cannot read: the message of a new-message webhook: data\.guid: /,
      ),
    ]);
    expect(running.events).toEqual([]);
  });
});
