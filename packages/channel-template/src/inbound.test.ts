import { readFileSync } from "node:fs";
import type { RefScope } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { normalizeDelivery } from "./inbound.js";

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
