import {
  buildMessageTool,
  type ChannelCapabilities,
  type MessageToolDefinition,
  type MessageToolInput,
  type MessageToolSuccess,
  type ReactionLevel,
} from "@chorus/core";
import type { MessageToolBinding } from "../agent/index.js";
import type { ChannelEntry, MessageToolCalls, TurnScope } from "../channels/index.js";
import type { TurnReactions } from "../turn-reactions/index.js";
import type { TurnTrigger } from "./types.js";

/** The `message` tool definitions of the running channels: one per channel and reaction level, built once. */
export class MessageToolDefinitions {
  readonly #byEntry = new WeakMap<ChannelEntry, Map<ReactionLevel, MessageToolDefinition>>();

  /**
   * `mediaLinks`: whether the gateway can link to a medium (`gateway.publicUrl` is set). A channel
   * that sends media only as links (Nextcloud Talk) offers no `media` without them.
   */
  constructor(private readonly mediaLinks = true) {}

  /** Core's tool for this channel at its resolved `reactionLevel` (DESIGN §2.5). */
  for(entry: ChannelEntry, level: ReactionLevel): MessageToolDefinition {
    let byLevel = this.#byEntry.get(entry);
    if (!byLevel) {
      byLevel = new Map();
      this.#byEntry.set(entry, byLevel);
    }
    let definition = byLevel.get(level);
    if (!definition) {
      definition = buildMessageTool({
        capabilities: offeredCapabilities(entry.capabilities, this.mediaLinks),
        reactionLevel: level,
        channel: entry.plugin.label,
        ...(entry.plugin.vocabulary ? { vocabulary: entry.plugin.vocabulary } : {}),
      });
      byLevel.set(level, definition);
    }
    return definition;
  }
}

/** A link-only channel without links to make sends no media: its tool shows none. */
function offeredCapabilities(capabilities: ChannelCapabilities, mediaLinks: boolean): ChannelCapabilities {
  if (mediaLinks || !capabilities.media?.linkOnly) return capabilities;
  const { media: _linksOnly, ...rest } = capabilities;
  return rest;
}

export interface ToolBindingInput {
  definition: MessageToolDefinition;
  tools: MessageToolCalls;
  /** Where the agent's calls default to: this turn's conversation and message. */
  scope: TurnScope;
  trigger: TurnTrigger | undefined;
  /** The turn's own reactions (ack, status), when it shows any. */
  reactions: TurnReactions | undefined;
}

/**
 * The `message` tool as this turn's agent calls it. Each call shows as the `tool` status; a
 * `react` first waits for the ack to land (so on one-slot channels the agent's reaction is the
 * one that stays), is reported to the turn reactions, and with `trackToolCalls: true` moves the
 * rest of the turn's status reactions to the message it reacted on (DESIGN §7).
 */
export function bindMessageTool(input: ToolBindingInput): MessageToolBinding {
  const { definition, tools, scope, trigger, reactions } = input;
  return {
    definition,
    execute: async (call: MessageToolInput): Promise<MessageToolSuccess> => {
      reactions?.progress("tool");
      if (call.action === "react") await reactions?.settled();
      const output = await tools.execute(call, scope);
      if (output.action === "react" && trigger) {
        const messageId = call.messageId ?? trigger.ref.messageId;
        reactions?.agentReacted(messageId, { op: output.op, ...(output.emoji ? { emoji: output.emoji } : {}) });
        if (call.trackToolCalls) {
          reactions?.retarget(messageId === trigger.ref.messageId ? trigger.ref : { ...trigger.ref, messageId });
        }
      }
      return output;
    },
  };
}
