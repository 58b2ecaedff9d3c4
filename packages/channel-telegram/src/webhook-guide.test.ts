import type { InboundMessageEvent } from "@chorus/core";
import { waitFor } from "@chorus/testkit";
import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { telegramSession } from "./fake-group.test-util.js";
import * as guide from "./fixtures/webhook-guide.js";

/** The chat of every example: a private chat with user 1111111. */
const CHAT = 1111111;
const HOOK = "https://bot.example.com/hooks/telegram/default";
const secretToken = "s3cret_token-ABC";

/** What every message example becomes, but for its text, title and reply. */
const messageEvent = (text: string, title = "Test Firstname Test Lastname") => ({
  type: "message",
  eventId: "10000",
  conversation: { id: "1111111", kind: "direct", title },
  sender: { id: "1111111", name: title },
  text,
  mentions: { bot: false, others: [] },
  ref: expect.objectContaining({ conversationId: "1111111", messageId: "1365" }),
  timestamp: 1441645532000,
});

const MESSAGES: [name: string, update: unknown, event: Record<string, unknown>][] = [
  [
    "message with text using curl (no chat type)",
    guide.messageWithTextUsingCurl,
    messageEvent("/start", "Test Test Lastname"),
  ],
  ["message with text", guide.messageWithText, messageEvent("/start")],
  ["forwarded message", guide.forwardedMessage, messageEvent("/start")],
  ["forwarded channel message", guide.forwardedChannelMessage, messageEvent("/start")],
  [
    "message with a reply (the original has no author)",
    guide.messageWithAReply,
    { ...messageEvent("/start"), replyTo: { messageId: "1334", fromBot: false, text: "Original" } },
  ],
  ["message with entities", guide.messageWithEntities, messageEvent("Bold and italics")],
  [
    "message with audio (a medium alone: text empty, the attachment with what Telegram says of it)",
    guide.messageWithAudio,
    {
      ...messageEvent(""),
      attachments: [
        {
          kind: "audio",
          mime: "audio/mpeg",
          size: 3897500,
          durationMs: 243_000,
          source: { fileId: "AwADBAADbXXXXXXXXXXXGBdhD2l6_XX" },
        },
      ],
    },
  ],
  [
    "voice message",
    guide.voiceMessage,
    {
      ...messageEvent(""),
      attachments: [
        {
          kind: "voice",
          mime: "audio/ogg",
          size: 23000,
          durationMs: 5_000,
          source: { fileId: "AwADBAADbXXXXXXXXXXXGBdhD2l6_XX" },
        },
      ],
    },
  ],
  [
    "message with a document",
    guide.messageWithADocument,
    {
      ...messageEvent(""),
      attachments: [
        {
          kind: "file",
          mime: "application/pdf",
          filename: "Testfile.pdf",
          size: 536392,
          source: { fileId: "AwADBAADbXXXXXXXXXXXGBdhD2l6_XX" },
        },
      ],
    },
  ],
];

describe("Telegram's own example updates, long-polled: users without is_bot are people, every message is read", () => {
  const t = telegramSession();

  it.each(MESSAGES)("%s becomes a message event", async (_name, update, event) => {
    t.fake.addChat({ id: CHAT, type: "private", first_name: "Test Firstname" });
    const running = await t.start();
    t.fake.enqueueRaw(update);
    const emitted = await running.waitForEvent((e): e is InboundMessageEvent => e.type === "message");
    expect(emitted).toEqual(event);
    expect(emitted.sender).not.toHaveProperty("isBot");
    await waitFor(() => t.fake.state.pending.length === 0, { message: "the update confirmed" });
    expect(running.events).toHaveLength(1);
    expect(running.logs.at("warn")).toEqual([]);
  });
});

describe("Telegram's own example updates, posted to the webhook", () => {
  const t = telegramSession({ webhookUrl: HOOK, secretToken });

  it("the first example (no chat type, no is_bot) is answered 200 and emitted as a direct message", async () => {
    const running = await t.start();
    const hook = `${running.hooksUrl}/hooks/telegram/default`;
    expect((await t.fake.deliver(hook, guide.messageWithTextUsingCurl as Update)).status).toBe(200);
    expect(running.events).toEqual([messageEvent("/start", "Test Test Lastname")]);
    expect(running.logs.at("warn")).toEqual([]);
  });

  it.each([
    ["edited message", guide.editedMessage],
    ["inline query", guide.inlineQuery],
    ["chosen inline result", guide.chosenInlineResult],
    ["callback query", guide.callbackQuery],
  ])(
    "the %s example (a kind the bot does not follow) is read, acknowledged and gives no event",
    async (_name, update) => {
      const running = await t.start();
      const hook = `${running.hooksUrl}/hooks/telegram/default`;
      expect((await t.fake.deliver(hook, update as Update)).status).toBe(200);
      expect(running.events).toEqual([]);
      expect(running.logs.at("warn")).toEqual([]);
    },
  );
});
