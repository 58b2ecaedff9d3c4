import { readFileSync } from "node:fs";
import type { RefScope } from "@chorus/core";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { normalizeDelivery } from "./inbound.js";
import { acmeChannel } from "./index.js";
import { createFakeAcme, type FakeAcme } from "./testing/index.js";

/** A delivery as Acme documents it (`src/fixtures/`): what the plugin must read. */
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8"));

const scope: RefScope = { channel: "acme", accountId: "work", botId: "u_bot" };
const ann = { id: "u_ann", name: "Ann" };

describe("normalizeDelivery", () => {
  it("reads a group message that mentions the bot and someone else", () => {
    expect(normalizeDelivery(fixture("message-created-group"), scope)).toEqual({
      type: "message",
      eventId: "dlv_2hQv9mX4",
      conversation: {
        id: "c_team",
        kind: "group",
        title: "Café crew",
        members: [{ id: "u_bot", name: "Chorus", isBot: true }, ann, { id: "u_bob", name: "Bob" }],
      },
      sender: ann,
      text: "@Chorus ask @Bob about the 🚀 launch",
      mentions: { bot: true, others: ["u_bob"] },
      ref: { channel: "acme", accountId: "work", conversationId: "c_team", messageId: "msg_381", fromBot: false },
      timestamp: Date.parse("2026-03-02T09:15:04.118Z"),
    });
  });

  it("reads a direct reply to the bot, where Acme leaves out mentions, name and members", () => {
    expect(normalizeDelivery(fixture("message-created-direct-reply"), scope)).toEqual({
      type: "message",
      eventId: "dlv_2hQvA0c1",
      conversation: { id: "c_ann", kind: "direct" },
      sender: ann,
      text: "yes please",
      mentions: { bot: false, others: [] },
      replyTo: { messageId: "msg_388", fromBot: true, senderId: "u_bot", text: "Shall I book it?" },
      ref: { channel: "acme", accountId: "work", conversationId: "c_ann", messageId: "msg_390", fromBot: false },
      timestamp: Date.parse("2026-03-02T09:16:29.950Z"),
    });
  });

  it("reads a file as an attachment whose source is Acme's URL, its caption as the text", () => {
    expect(normalizeDelivery(fixture("message-created-file"), scope)).toMatchObject({
      text: "the floor plan",
      attachments: [
        {
          kind: "image",
          filename: "plan.png",
          mime: "image/png",
          size: 48213,
          source: { url: "https://files.acme.example/v1/files/file_77" },
        },
      ],
    });
  });

  it("reads a pin as a location attachment of a message without text", () => {
    expect(normalizeDelivery(fixture("message-created-location"), scope)).toMatchObject({
      text: "",
      attachments: [{ kind: "location", location: { latitude: 52.520008, longitude: 13.404954 } }],
    });
  });

  it("reads a reaction on the bot's message, with Acme's name turned into its emoji", () => {
    expect(normalizeDelivery(fixture("reaction-added"), scope)).toEqual({
      type: "reaction",
      eventId: "dlv_2hQvB3kd",
      conversation: { id: "c_team", kind: "group", title: "Café crew" },
      target: { channel: "acme", accountId: "work", conversationId: "c_team", messageId: "msg_384", fromBot: true },
      emoji: "🎉",
      action: "added",
      actor: { id: "u_bob", name: "Bob" },
      timestamp: Date.parse("2026-03-02T09:17:02.640Z"),
    });
  });

  it("keeps a reaction name it does not know, and reads removals", () => {
    const delivery = fixture("reaction-added");
    const data = { ...(delivery.data as object), reaction: "clap" };
    expect(normalizeDelivery({ ...delivery, type: "reaction.removed", data }, scope)).toMatchObject({
      emoji: "clap",
      action: "removed",
    });
  });

  it("drops the bot's own messages and reactions", () => {
    expect(normalizeDelivery(fixture("message-created-echo"), scope)).toBeUndefined();
    const delivery = fixture("reaction-added");
    const data = { ...(delivery.data as object), user: { id: "u_bot", name: "Chorus", bot: true } };
    expect(normalizeDelivery({ ...delivery, data }, scope)).toBeUndefined();
  });

  it("ignores event types the bot does not follow", () => {
    expect(normalizeDelivery(fixture("member-joined"), scope)).toBeUndefined();
  });

  it("refuses what it cannot read with E_INVALID_INPUT naming each wrong field", () => {
    const delivery = fixture("message-created-group");
    const data = delivery.data as { message: Record<string, unknown> };
    const broken = { ...delivery, data: { ...data, message: { ...data.message, id: 381, author: undefined } } };
    expect(() => normalizeDelivery(broken, scope)).toThrow(
      expect.objectContaining({
        code: "E_INVALID_INPUT",
        message: expect.stringMatching(/message\.created: message\.id: .*number.*; message\.author: /),
      }),
    );
    expect(() => normalizeDelivery({ type: "message.created" }, scope)).toThrow(
      /unreadable delivery: id: .*; created_at/,
    );
  });
});

describe("the fixtures, posted by the fake Acme to the running channel's webhook as they are", () => {
  let fake: FakeAcme;
  let running: RunningChannel;
  beforeEach(async () => {
    fake = createFakeAcme();
    await fake.start();
    running = await startChannel(acmeChannel, { config: fake.config() });
  });
  afterEach(async () => {
    await running.stop();
    await fake.close();
  });
  /** Posts a fixture signed as Acme signs; resolves with the channel's answer. */
  const post = (delivery: Record<string, unknown>) => fake.webhooks.post(JSON.stringify(delivery));

  it("messages and reactions become events; the echo and a type the bot does not follow are answered, unemitted", async () => {
    for (const name of ["message-created-group", "message-created-direct-reply", "reaction-added"]) {
      expect(await post(fixture(name))).toBe(200);
    }
    for (const name of ["message-created-echo", "member-joined"]) expect(await post(fixture(name))).toBe(200);
    expect(running.events.map((e) => e.eventId)).toEqual(["dlv_2hQv9mX4", "dlv_2hQvA0c1", "dlv_2hQvB3kd"]);
    expect(running.logs.at("warn", true)).toEqual([]);
  });

  it("a field with a fallback may be missing: a sender without a name is still a message, known by id", async () => {
    const delivery = fixture("message-created-direct-reply") as { data: { message: { author: object } } };
    delivery.data.message.author = { id: "u_ann" };
    expect(await post(delivery)).toBe(200);
    expect(running.events).toMatchObject([{ type: "message", sender: { id: "u_ann" }, text: "yes please" }]);
    expect(running.events[0]?.type === "message" && running.events[0].sender).not.toHaveProperty("name");
    expect(running.logs.at("warn", true)).toEqual([]);
  });
});
