import { readFileSync } from "node:fs";
import { collectBytes } from "@chorus/channel-kit";
import type { Attachment, InboundReactionEvent } from "@chorus/core";
import { sampleMedium } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LinkedChannel, linkedChannel } from "./test-support.test-util.js";
import { ANN, BOB, TEAM } from "./testing/fixture.js";

/**
 * The fixtures (`src/fixtures/SOURCES.md`: shaped after zca-js's listener types, there being no
 * published sample), sent by the fake Zalo's listener exactly as they are, inside the frame zca-js
 * reads (`msgs`, `groupMsgs`, `reactGroups`), to zca-js and the running channel.
 */
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8"));

let world: LinkedChannel;
beforeEach(async () => {
  world = await linkedChannel();
});
afterEach(() => world.close());

const warnings = () => world.running.logs.at("warn", true).map((r) => r.message);

describe("zca-js listener shapes, through the fake listener and zca-js", () => {
  it("a direct message (cmd 501, `msgs`) quoting the bot is a direct message with its reply", async () => {
    await world.fake.listener.send(501, { msgs: [fixture("direct-message-reply")] });
    expect(await world.inbound("6200000000023")).toMatchObject({
      type: "message",
      conversation: { id: ANN.id, kind: "direct", title: ANN.name },
      sender: { id: ANN.id, name: ANN.name },
      text: "yes, 7pm works",
      replyTo: { messageId: "6200000000020", senderId: "2153466178471249562", text: "Dinner at 7pm?" },
    });
    expect(warnings()).toEqual([]);
  });

  it("a group message (cmd 521, `groupMsgs`) with mentions is a group message", async () => {
    await world.fake.listener.send(521, { groupMsgs: [fixture("group-message-mentions")] });
    expect(await world.inbound("6200000000017")).toMatchObject({
      type: "message",
      conversation: { id: TEAM, kind: "group" },
      sender: { id: ANN.id },
      text: "@All @Chorus Bot can you ask @Bob Tran?",
      mentions: { others: [BOB.id] },
    });
    expect(warnings()).toEqual([]);
  });

  it("a photo (content an attachment object) is a message with an image attachment; download gives the bytes Zalo's CDN serves at its href", async () => {
    const photo = fixture("photo-message");
    const bytes = sampleMedium("image").bytes;
    world.fake.media.serve((photo.content as { href: string }).href, bytes, "image/jpeg");
    await world.fake.listener.send(521, { groupMsgs: [photo] });
    const event = await world.inbound("6200000000030");
    expect(event).toMatchObject({
      conversation: { id: TEAM, kind: "group" },
      sender: { id: BOB.id },
      text: "the whiteboard",
    });
    const [attachment] = event.attachments ?? [];
    const medium = await world.running.instance.download?.(attachment as Attachment, { maxBytes: 1024 * 1024 });
    expect(medium?.mime).toBe("image/jpeg");
    expect(await collectBytes(medium?.stream as ReadableStream<Uint8Array>, 1024 * 1024, "photo")).toEqual(bytes);
    expect(warnings()).toEqual([]);
  });

  it("a voice message (cmd 501) is a voice attachment; it downloads without the session's cookies", async () => {
    const voice = fixture("voice-message");
    const bytes = sampleMedium("voice").bytes;
    world.fake.media.serve((voice.content as { href: string }).href, bytes, "audio/aac");
    await world.fake.listener.send(501, { msgs: [voice] });
    const event = await world.inbound("6200000000050");
    expect(event).toMatchObject({
      conversation: { id: ANN.id, kind: "direct" },
      text: "",
      attachments: [{ kind: "voice" }],
    });
    const medium = await world.running.instance.download?.(event.attachments?.[0] as Attachment, { maxBytes: 1 << 20 });
    expect(await collectBytes(medium?.stream as ReadableStream<Uint8Array>, 1 << 20, "voice")).toEqual(bytes);
    const served = world.fake.server.requestsTo("GET", "/8d1f2c/voice-1733040400.aac");
    expect(served).toHaveLength(1);
    expect(served[0]?.headers.cookie).toBeUndefined();
  });

  it("a group reaction (cmd 612, `reactGroups`, its content a JSON string on the wire) is a reaction", async () => {
    const reaction = fixture("reaction-group");
    await world.fake.listener.send(612, {
      reacts: [],
      reactGroups: [{ ...reaction, content: JSON.stringify(reaction.content) }],
      version: 1,
    });
    const event = (await world.running.waitForEvent((e) => e.type === "reaction", 5_000)) as InboundReactionEvent;
    expect(event).toMatchObject({
      conversation: { id: TEAM, kind: "group" },
      target: { conversationId: TEAM, messageId: "6200000000020" },
      action: "added",
      actor: { id: ANN.id, name: ANN.name },
    });
    expect(warnings()).toEqual([]);
  });
});
