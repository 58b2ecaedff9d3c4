import { z } from "zod";
import { MAX_EMOJI_LENGTH } from "../reactions/normalize.js";
import { locationSchema, mediaListSchema } from "./media-input.js";

export const MESSAGE_ACTIONS = ["send", "react", "reactions"] as const;
export type MessageAction = (typeof MESSAGE_ACTIONS)[number];

/** Longest text `send` accepts in one call; plugins split it at their platform's limit. */
export const MAX_SEND_TEXT_LENGTH = 100_000;

const routing = {
  channel: z.string().min(1).max(64).describe("Channel id (telegram, discord, …). Defaults to the current one."),
  account: z.string().min(1).max(128).describe("Account of the channel. Defaults to the current one."),
  target: z.string().min(1).max(512).describe("Conversation id. Defaults to the current conversation."),
};

/** Every parameter of the `message` tool (DESIGN §2), before a channel narrows it. */
export const messageToolInputSchema = z
  .object({
    action: z.enum(MESSAGE_ACTIONS),
    messageId: z.string().min(1).max(512).optional(),
    emoji: z.string().max(MAX_EMOJI_LENGTH).optional(),
    remove: z.boolean().optional(),
    clearAll: z.boolean().optional(),
    trackToolCalls: z.boolean().optional(),
    channel: routing.channel.optional(),
    account: routing.account.optional(),
    target: routing.target.optional(),
    text: z.string().max(MAX_SEND_TEXT_LENGTH).optional(),
    replyTo: z.string().min(1).max(512).optional(),
    media: mediaListSchema.optional(),
    location: locationSchema.optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    const hasText = input.text !== undefined && input.text.trim() !== "";
    if (input.action === "send" && !hasText && input.media === undefined && input.location === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["text"],
        message: "text is required with action send (or media, or a location)",
      });
    }
    if (input.action !== "send") {
      for (const key of ["media", "location"] as const) {
        if (input[key] !== undefined)
          ctx.addIssue({ code: "custom", path: [key], message: `${key} is only for action send` });
      }
    }
  });

/** A validated `message` tool call. */
export type MessageToolInput = z.infer<typeof messageToolInputSchema>;

export const routingSchemas = routing;
