import { z } from "zod";
import type { ReactionVocabulary } from "../emoji/vocabulary.js";
import { ChorusError } from "../errors.js";
import { mediaOf } from "../media/capabilities.js";
import type { ChannelCapabilities } from "../plugin/plugin.js";
import type { ReactionCapabilities } from "../reactions/capabilities.js";
import { agentMayReact, type ReactionLevel, resolveReactionLevel } from "../reactions/level.js";
import { MAX_EMOJI_LENGTH } from "../reactions/normalize.js";
import { describeReactionRules } from "./describe.js";
import { describeMediaRules, offersMedia } from "./describe-media.js";
import { type MessageAction, type MessageToolInput, messageToolInputSchema, routingSchemas } from "./input.js";
import { checkInlineMedia, locationSchema, mediaListSchema } from "./media-input.js";

export interface MessageToolOptions {
  capabilities: ChannelCapabilities;
  /** `channels.<id>.reactionLevel`; `off` and `ack` hide `react` from the agent. Default: `DEFAULT_REACTION_LEVEL`. */
  reactionLevel?: ReactionLevel;
  /** Channel label for descriptions and errors (`Telegram`). */
  channel?: string;
  vocabulary?: ReactionVocabulary;
}

/** The `message` tool as one channel offers it: what the agent sees, and how calls are checked. */
export interface MessageToolDefinition {
  readonly name: "message";
  readonly description: string;
  readonly actions: readonly MessageAction[];
  /** JSON Schema (draft 2020-12) of the parameters, narrowed to what the channel can honour. */
  readonly jsonSchema: Record<string, unknown>;
  /** Validates a call; throws `ChorusError` naming the parameter that is wrong. */
  parse(input: unknown): MessageToolInput;
}

/** Builds the `message` tool for a channel's capabilities and reaction level (DESIGN §2.5). */
export function buildMessageTool(options: MessageToolOptions): MessageToolDefinition {
  const { capabilities, channel = "this channel" } = options;
  const level = resolveReactionLevel(options.reactionLevel);
  const reactions = capabilities.reactions;
  const canReact = agentMayReact(level);
  const actions: MessageAction[] = ["send"];
  if (canReact) actions.push("react");
  if (canReact && reactions.list) actions.push("reactions");

  const shape: Record<string, z.ZodType> = {
    action: z.enum(actions as [MessageAction, ...MessageAction[]]).describe(describeActions(actions, reactions)),
  };
  if (canReact) {
    shape.messageId = z.string().describe("Message to react to. Defaults to the message you are answering.").optional();
    shape.emoji = z
      .string()
      .max(MAX_EMOJI_LENGTH)
      .describe("Unicode (👍), shortcode (thumbsup, :+1:) or the platform's own name.")
      .optional();
    if (!reactions.addOnly) {
      shape.remove = z.boolean().describe("Remove this one emoji of yours (needs emoji).").optional();
      if (reactions.clearAll)
        shape.clearAll = z.boolean().describe("Remove every reaction you left on the message.").optional();
    }
    shape.trackToolCalls = z
      .boolean()
      .describe("Show the status of the rest of this turn as reactions on this message.")
      .optional();
  }
  const media = mediaOf(capabilities);
  const sendsMedia = offersMedia(media);
  shape.text = z.string().describe("Text to send (action send).").optional();
  if (sendsMedia)
    shape.media = mediaListSchema
      .describe("Photos, videos, audio, voice notes, files or stickers to send (action send).")
      .optional();
  shape.location = locationSchema.describe("A place to send (action send).").optional();
  shape.replyTo = z.string().describe("Message id to reply to (action send).").optional();
  shape.channel = routingSchemas.channel.optional();
  shape.account = routingSchemas.account.optional();
  shape.target = routingSchemas.target.optional();

  const rules = [
    ...(capabilities.media ? describeMediaRules(media) : []),
    ...(canReact ? describeReactionRules(reactions, level, options.vocabulary) : []),
  ];
  const description = [`Send messages${canReact ? " and react to them" : ""} on ${channel}.`, ...rules].join(" ");
  const jsonSchema = z.toJSONSchema(z.object(shape).strict()) as Record<string, unknown>;

  return {
    name: "message",
    description,
    actions,
    jsonSchema,
    parse: (input) => parseMessageToolInput(input, actions, level, channel, sendsMedia),
  };
}

/** Validates a call against the full parameter set, then against what this channel offers. */
function parseMessageToolInput(
  input: unknown,
  actions: readonly MessageAction[],
  level: ReactionLevel,
  channel: string,
  sendsMedia: boolean,
): MessageToolInput {
  const parsed = messageToolInputSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`);
    throw new ChorusError("E_INVALID_INPUT", `Invalid message tool call: ${problems.join("; ")}`, {
      details: { issues: parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) },
    });
  }
  const call = parsed.data;
  if (!actions.includes(call.action)) {
    if (call.action !== "send" && !agentMayReact(level)) {
      throw new ChorusError("E_DISABLED", `Reactions are disabled on ${channel} (reactionLevel: ${level}).`);
    }
    throw new ChorusError("E_UNSUPPORTED", `${channel} cannot list reactions on a message.`);
  }
  if (call.media !== undefined && !sendsMedia) {
    throw new ChorusError("E_UNSUPPORTED", `${channel} cannot send media.`, {
      hint: "Describe it in text, or send a location.",
    });
  }
  checkInlineMedia(call.media);
  return call;
}

function describeActions(actions: readonly MessageAction[], reactions: ReactionCapabilities): string {
  const text: Record<MessageAction, string> = {
    send: "send: send text, media or a location",
    react: reactDescription(reactions),
    reactions: "reactions: list the reactions on a message",
  };
  return actions.map((a) => text[a]).join("; ");
}

function reactDescription(reactions: ReactionCapabilities): string {
  return reactions.addOnly ? "react: add a reaction" : "react: add or remove a reaction";
}
