/**
 * Hello: the smallest whole channel, on testkit's memory platform. Read top-down: this file (the
 * plugin object) → `config.ts` → `instance.ts` → `receive.ts` → `inbound.ts` → `outbound.ts` →
 * `reactions.ts`.
 */
import { CHORUS_API_VERSION, defineChannel } from "@chorus/core";
import { HELLO_SECRET_KEYS, type HelloConfig, helloConfigSchema } from "./config.js";
import { createHelloInstance } from "./instance.js";
import { MAX_TEXT_LENGTH } from "./outbound.js";

/** The Hello channel plugin; the package's default export. */
export const helloChannel = defineChannel<HelloConfig>({
  id: "hello",
  apiVersion: CHORUS_API_VERSION,
  label: "Hello",
  capabilities: {
    chatTypes: ["direct", "group"], // the platform has both
    reactions: {
      clearAll: true, // DELETE /v1/messages/:id/reactions takes back all of the bot's own
      singleSlot: false, // the bot may hold several reactions on one message
      tapbackOnly: false, // any emoji
      addOnly: false, // a reaction can be taken back
      list: true, // GET /v1/messages/:id/reactions says who reacted
    },
    typing: true, // POST /v1/conversations/:id/typing
    inboundReactions: true, // reaction events arrive on the event stream
    replies: true, // replyToId
    threads: false, // not used here, to stay small
    maxTextLength: MAX_TEXT_LENGTH, // longer text is split
  },
  configSchema: helloConfigSchema,
  secretKeys: HELLO_SECRET_KEYS,
  create: (ctx) => createHelloInstance(ctx),
});

export default helloChannel;

export type { HelloConfig } from "./config.js";
