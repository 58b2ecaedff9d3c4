import type { InboundEvent } from "@chorus/core";
import { EscapeWatch, type RunningChannel, startChannel, waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discordChannel } from "./index.js";
import { ANN, BOB, FAST, startFakeDiscord } from "./test-support.test-util.js";
import type { GatewayPayload } from "./testing/fake-gateway.js";
import type { FakeDiscord } from "./testing/index.js";

// The real discord.js Client against the fake Discord; the host (testkit) fails commits on request.
let fake: FakeDiscord;
let channel: RunningChannel;
let stopped: boolean;
let watch: EscapeWatch;

beforeEach(async () => {
  watch = new EscapeWatch().start();
  fake = await startFakeDiscord();
  channel = await startChannel(discordChannel, { config: fake.config(FAST) });
  stopped = false;
});
afterEach(async () => {
  watch.stop();
  if (!stopped) await channel.stop();
  await fake.close();
});

const about =
  (text: string) =>
  (event: InboundEvent): boolean =>
    event.type === "message" && event.text === text;
/** The MESSAGE_CREATE dispatches of message `id` the fake sent this session. */
const dispatchesOf = (id: string): GatewayPayload[] =>
  (fake.gateway.current?.log ?? []).filter((p) => p.t === "MESSAGE_CREATE" && (p.d as { id?: string }).id === id);
const messages = (level: "info" | "warn" | "error") => channel.logs.at(level).map((r) => r.message);

describe("Discord receive: an event is acknowledged only once committed", () => {
  it("a message whose commit fails is kept and emitted again until committed, once; later ones are not held up", async () => {
    channel.refuseCommit(about("kept"), 2);
    const kept = fake.userSends({ channelId: "200", author: ANN, content: "kept" });
    const next = fake.userSends({ channelId: "200", author: BOB, content: "next" });
    await channel.waitForEvent(about("next"));
    await channel.waitForEvent(about("kept"));
    expect(channel.refused.filter(about("kept"))).toHaveLength(2);
    expect(channel.events.filter(about("kept"))).toHaveLength(1);
    expect(channel.events.map((e) => e.eventId)).toEqual([`message:${next.id}`, `message:${kept.id}`]);
    // Discord sent it once: the plugin, not the platform, delivered it again.
    expect(dispatchesOf(kept.id)).toHaveLength(1);
    expect(messages("warn")).toEqual([
      "discord: the gateway could not commit an event; it is kept and emitted again until it is",
    ]);
    expect(messages("info")).toContain("discord: an event kept after a failed commit is committed");
    expect(watch.describe()).toBe("");
  });

  it("Discord counts a dispatch received once the client has it: a RESUME after the failed commit replays nothing", async () => {
    channel.refuseCommit(about("across a resume"), 3);
    const sent = fake.userSends({ channelId: "200", author: ANN, content: "across a resume" });
    const seq = dispatchesOf(sent.id)[0]?.s ?? Number.NaN;
    await waitFor(() => channel.refused.length >= 1);
    // The connection drops while the event is kept; discord.js resumes from the last sequence it received.
    fake.fault("close");
    fake.heal();
    await waitFor(() => fake.gateway.received.some((p) => p.op === 6), { timeoutMs: 5_000 });
    const resume = fake.gateway.received.find((p) => p.op === 6) as { d: { seq: number } };
    expect(resume.d.seq).toBeGreaterThanOrEqual(seq);
    await channel.waitForEvent(about("across a resume"), 10_000);
    expect(channel.refused.filter(about("across a resume"))).toHaveLength(3);
    expect(channel.events.filter(about("across a resume"))).toHaveLength(1);
    expect(dispatchesOf(sent.id)).toHaveLength(1);
    expect(watch.describe()).toBe("");
  });

  it("a dispatch the channel cannot read: one warning naming what is wrong, nothing kept, the next arrives", async () => {
    fake.deliverUnparseable("200");
    fake.userSends({ channelId: "200", author: ANN, content: "after the garbage" });
    await channel.waitForEvent(about("after the garbage"));
    expect(messages("warn")).toEqual([
      expect.stringMatching(
        /^discord: skipped a delivery it cannot read: a MESSAGE_CREATE dispatch \(seq \d+\): id: expected a snowflake/,
      ),
    ]);
    expect(channel.refused).toEqual([]);
    expect(channel.events.map((e) => e.type)).toEqual(["message"]);
  });

  it("an event still kept when the instance stops is let go with an error; nothing escapes", async () => {
    channel.refuseCommit(about("never committed"), 1_000);
    fake.userSends({ channelId: "200", author: ANN, content: "never committed" });
    await waitFor(() => channel.refused.length >= 1);
    stopped = true;
    await channel.stop();
    await waitFor(() => messages("error").length > 0);
    expect(messages("error")).toEqual(["discord: stopped with an event the gateway never committed: it is dropped"]);
    expect(channel.events.filter(about("never committed"))).toEqual([]);
    expect(watch.describe()).toBe("");
  });
});
