import { readFileSync } from "node:fs";
import type { InboundEvent } from "@chorus/core";
import { type RunningChannel, startChannel, waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { slackChannel } from "./index.js";
import { createFakeSlack, type FakeSlack } from "./testing/index.js";

/**
 * Slack's own documented payloads (`src/fixtures/SOURCES.md` says which page each comes from),
 * delivered by the fake Slack to the running channel as Slack delivers them: signed posts to the
 * Request URL, and `events_api` envelopes over Socket Mode. The bot of Slack's examples is U0LAN0Z89.
 */
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8"));

let fake: FakeSlack;
let running: RunningChannel | undefined;

/** A fake Slack whose workspace has the people and channel of Slack's examples. */
async function slackOfTheDocs(mode: "http" | "socket"): Promise<void> {
  fake = createFakeSlack({ mode, bot: { id: "U0LAN0Z89", name: "chorus", display_name: "Chorus" } });
  await fake.start();
  fake.addUser({ id: "U123ABC456", name: "cleo", real_name: "Cleo Real", display_name: "Cleo" });
  fake.addUser({ id: "U061F7AUR", name: "ann", real_name: "Ann Real", display_name: "Ann" });
  fake.addUser({ id: "U222222222", name: "eve", real_name: "Eve Real", display_name: "Eve" });
  fake.addUser({ id: "U2147483697", name: "dev", real_name: "Dev Real", display_name: "Dev" });
  fake.addConversation({ id: "D024BE91L", type: "im", members: ["U0LAN0Z89", "U2147483697"] });
  fake.addConversation({
    id: "C123ABC456",
    type: "channel",
    name: "general",
    members: ["U0LAN0Z89", "U123ABC456", "U061F7AUR"],
  });
  running = await startChannel(slackChannel, { config: fake.config() });
  if (mode === "http") fake.http.requestUrl = running.ctx.http.url("/default/events");
}

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await fake.close();
});

const channel = () => running as RunningChannel;
const only = (events: readonly InboundEvent[]) => {
  expect(events).toHaveLength(1);
  return events[0];
};

describe("Slack's documented payloads, posted to the Request URL", () => {
  beforeEach(() => slackOfTheDocs("http"));

  it("message.channels (docs.slack.dev/reference/events/message.channels) becomes a group message", async () => {
    expect(await fake.post(fixture("message-channels"))).toBe(200);
    expect(only(channel().events)).toMatchObject({
      type: "message",
      eventId: "C123ABC456/1355517523.000005",
      conversation: { id: "C123ABC456", kind: "group", title: "general" },
      sender: { id: "U123ABC456", name: "Cleo" },
      text: "Live long and prospect.",
      mentions: { bot: false, others: [] },
      timestamp: 1355517523000,
    });
    expect(channel().logs.at("warn")).toEqual([]);
  });

  it("message.im (docs.slack.dev/reference/events/message.im) becomes a direct message", async () => {
    expect(await fake.post(fixture("message-im-docs"))).toBe(200);
    expect(only(channel().events)).toMatchObject({
      type: "message",
      eventId: "D024BE91L/1355517523.000005",
      conversation: { id: "D024BE91L", kind: "direct" },
      sender: { id: "U2147483697", name: "Dev" },
      text: "Hello hello can you hear me?",
    });
    expect(channel().logs.at("warn")).toEqual([]);
  });

  it("app_mention (its event_ts without a dot, as documented) is a mention of the bot", async () => {
    expect(await fake.post(fixture("app-mention"))).toBe(200);
    expect(only(channel().events)).toMatchObject({
      type: "message",
      eventId: "C123ABC456/1515449522.000016",
      sender: { id: "U061F7AUR", name: "Ann" },
      text: "@Chorus is it everything a river should be?",
      mentions: { bot: true, others: [] },
    });
    expect(channel().logs.at("warn")).toEqual([]);
  });

  it("file_share (api.slack.com/events/message/file_share, its `bot_id: null` as printed) becomes a message with the image", async () => {
    fake.addConversation({ id: "D0L4B9P0Q", type: "im", members: ["U0LAN0Z89", "U061F7AUR"] });
    expect(await fake.post(fake.http.envelope(fixture("message-file-share-docs")))).toBe(200);
    expect(only(channel().events)).toMatchObject({
      type: "message",
      eventId: "D0L4B9P0Q/1529342088.000086",
      conversation: { id: "D0L4B9P0Q", kind: "direct" },
      text: "We got one!",
      attachments: [{ kind: "image", filename: "ghostrap.png", mime: "image/png", size: 196920 }],
    });
    expect(channel().logs.at("warn")).toEqual([]);
  });

  it("reaction_added becomes a reaction on the message of its item", async () => {
    expect(await fake.post(fixture("reaction-added"))).toBe(200);
    expect(only(channel().events)).toMatchObject({
      type: "reaction",
      eventId: "Ev123ABC456",
      target: { conversationId: "C123ABC456", messageId: "1360782400.498405", fromBot: false },
      emoji: "👍️",
      action: "added",
      actor: { id: "U123ABC456" },
    });
    expect(channel().logs.at("warn")).toEqual([]);
  });
});

describe("Slack's documented payloads, over Socket Mode", () => {
  beforeEach(() => slackOfTheDocs("socket"));

  it("the app_mention envelope is acknowledged and emitted", async () => {
    const envelope = fixture("socket-events-api") as { payload: Record<string, unknown> };
    expect(await fake.socket.deliver(envelope.payload)).toBe(true);
    await waitFor(() => channel().events.length > 0, { message: "the mention emitted" });
    expect(only(channel().events)).toMatchObject({
      type: "message",
      text: "@Chorus is it everything a river should be?",
      mentions: { bot: true },
    });
    expect(channel().logs.at("warn")).toEqual([]);
  });
});
