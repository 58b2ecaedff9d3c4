import { toChorusError } from "../errors.js";
import type { MessageRef } from "../plugin/message-ref.js";
import type { ChannelInstance, ChannelPlugin } from "../plugin/plugin.js";
import type { ReactResult } from "../results.js";
import { normalizeReaction } from "./normalize.js";

export interface PerformReactionInput {
  plugin: Pick<ChannelPlugin, "capabilities" | "vocabulary" | "label">;
  instance: Pick<ChannelInstance, "react">;
  ref: MessageRef;
  /** The `react` call: `{ emoji?, remove?, clearAll? }`. */
  call: unknown;
}

/**
 * Applies core's rules to a `react` call, then has the plugin execute the intent. Whatever the
 * plugin throws reaches the caller as a `ChorusError`.
 */
export async function performReaction({ plugin, instance, ref, call }: PerformReactionInput): Promise<ReactResult> {
  const intent = normalizeReaction(call, plugin.capabilities.reactions, plugin.vocabulary, { channel: plugin.label });
  try {
    return await instance.react(ref, intent);
  } catch (error) {
    throw toChorusError(error, `${plugin.label} could not react`);
  }
}
