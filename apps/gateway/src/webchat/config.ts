import { z } from "@chorus/core";
import { MAX_NAME_LENGTH } from "./validate.js";

/** `channels.webchat`: how the built-in webchat looks and how much it keeps. */
export const webchatConfigSchema = z
  .object({
    /** The page title; default `Chorus`. */
    title: z.string().min(1, "title must not be empty").max(100).optional(),
    /** The bot's name in the chat (and for `@Name` mentions); default the hub's (the agent's name). */
    botName: z.string().min(1, "botName must not be empty").max(MAX_NAME_LENGTH).optional(),
    /**
     * Messages kept per room and shown on joining it; default 500. (Not `historyLimit`: that key
     * of a channel block belongs to the gateway's group context.)
     */
    keepMessages: z.number().int().min(1).max(10_000).optional(),
  })
  .strict();

export type WebchatConfig = z.output<typeof webchatConfigSchema>;
