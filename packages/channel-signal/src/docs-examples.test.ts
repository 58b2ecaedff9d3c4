import { readFileSync } from "node:fs";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { signalChannel } from "./index.js";
import { FakeSignal } from "./testing/index.js";

/**
 * signal-cli's own `receive` examples (man/signal-cli-jsonrpc.5.adoc, `src/fixtures/SOURCES.md`),
 * written by the fake daemon to its event stream as signal-cli writes an event (one line of
 * JSON), read by the running channel.
 */
const fixture = (name: string) =>
  JSON.stringify(JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8")));

let fake: FakeSignal | undefined;
let running: RunningChannel | undefined;

async function daemonFor(bot?: { number: string; uuid: string }): Promise<[FakeSignal, RunningChannel]> {
  fake = new FakeSignal({ keepAliveMs: 100, ...(bot ? { bot } : {}) });
  await fake.start();
  running = await startChannel(signalChannel, { config: fake.config({ timeoutMs: 500, retries: 0 }) });
  return [fake, running];
}

afterEach(async () => {
  await running?.stop();
  await fake?.close();
  running = undefined;
  fake = undefined;
});

describe("signal-cli's documented receive events, through the daemon's event stream", () => {
  it("the jsonRpc example (a dataMessage) becomes a direct message from its sender", async () => {
    const [daemon, channel] = await daemonFor();
    daemon.events.send(fixture("receive-docs-example"));
    const event = await channel.waitForEvent((e) => e.type === "message");
    expect(event).toMatchObject({
      type: "message",
      conversation: { id: "uuid", kind: "direct", title: "name" },
      sender: { id: "uuid", name: "name", e164: "+33123456789" },
      text: "foobar",
      mentions: { bot: false, others: [] },
      timestamp: 1631458508784,
    });
    expect(channel.logs.at("warn")).toEqual([]);
  });

  it("the subscribeReceive example (the account's own sync message to itself) is its Note to Self", async () => {
    const [daemon, channel] = await daemonFor({ number: "+33123456789", uuid: "uuid" });
    daemon.events.send(fixture("receive-sync-direct"));
    const event = await channel.waitForEvent((e) => e.type === "message");
    expect(event).toMatchObject({
      type: "message",
      conversation: { id: "uuid", kind: "direct", title: "Note to Self" },
      text: "j",
      timestamp: 1693064367769,
    });
    expect(channel.logs.at("warn")).toEqual([]);
  });
});
