import type { ChannelCapabilities, ReactionCapabilities } from "@chorus/core";

/** A channel that can do everything the `message` tool offers; `reactions` narrows its reactions. */
export function fullCapabilities(reactions: Partial<ReactionCapabilities> = {}): ChannelCapabilities {
  return {
    chatTypes: ["direct", "group"],
    reactions: { clearAll: true, singleSlot: false, tapbackOnly: false, addOnly: false, list: true, ...reactions },
    typing: true,
    inboundReactions: true,
    replies: true,
    threads: false,
    maxTextLength: 4000,
  };
}
