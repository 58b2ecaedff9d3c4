import { z } from "zod";

/**
 * The gateway dispatches the channel reads, as Discord documents them (developers/events/
 * gateway-events.mdx, resources/message.mdx): only the fields the channel and discord.js rely on
 * are checked, so a dispatch that fails here is one the channel really cannot read.
 */
const snowflake = z.string("expected a snowflake (a string of digits)").regex(/^\d{1,20}$/, "expected a snowflake");
const emoji = z.object({
  id: snowflake.nullable(),
  // Null for a custom emoji Discord no longer has data for (deleted from its guild).
  name: z.string().nullable(),
  animated: z.boolean().optional(),
});
const place = { channel_id: snowflake, message_id: snowflake, guild_id: snowflake.optional() };

const SCHEMAS = {
  MESSAGE_CREATE: z.object({
    id: snowflake,
    channel_id: snowflake,
    guild_id: snowflake.optional(),
    author: z.object({ id: snowflake, username: z.string() }),
    // Empty without the MESSAGE_CONTENT intent, but always there.
    content: z.string(),
    timestamp: z.string(),
    type: z.number().int(),
    mentions: z.array(z.object({ id: snowflake })).optional(),
    mention_roles: z.array(snowflake).optional(),
    message_reference: z.object({ message_id: snowflake.optional(), channel_id: snowflake.optional() }).optional(),
  }),
  MESSAGE_REACTION_ADD: z.object({
    ...place,
    user_id: snowflake,
    emoji,
    message_author_id: snowflake.optional(),
  }),
  MESSAGE_REACTION_REMOVE: z.object({ ...place, user_id: snowflake, emoji }),
  MESSAGE_REACTION_REMOVE_ALL: z.object(place),
  MESSAGE_REACTION_REMOVE_EMOJI: z.object({ ...place, emoji }),
} as const;

/** A dispatch type the channel reads. */
export type ReadDispatch = keyof typeof SCHEMAS;

/** A reaction dispatch's fields, once checked. */
export type ReactionDispatch = z.output<(typeof SCHEMAS)["MESSAGE_REACTION_ADD"]>;

/** True for the dispatch types the channel reads (and checks). */
export function isReadDispatch(type: unknown): type is ReadDispatch {
  return typeof type === "string" && Object.hasOwn(SCHEMAS, type);
}

/** What is wrong with a dispatch's data (`author.id: expected a snowflake; content: …`), or undefined when it reads. */
export function dispatchProblem(type: ReadDispatch, data: unknown): string | undefined {
  const result = SCHEMAS[type].safeParse(data);
  if (result.success) return undefined;
  return result.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "the payload"}: ${issue.message}`)
    .join("; ");
}
