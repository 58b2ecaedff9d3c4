import { type ChannelSettings, groupConfigFor } from "../config/index.js";
import type { ActivationMode, SessionSettings } from "../sessions/index.js";

/*
 * Group activation (DESIGN §4): whether a group message wakes the agent. `mention` (the default)
 * wakes it when the bot is mentioned (see `mentions.ts`), `always` on every message; the group's
 * configuration sets it (`requireMention`), an owner's `/activation` overrides it per session.
 */

/** `channels.<ch>.groups.<id>.requireMention`, else `groups["*"].requireMention` (the defaults), else true. */
export function requireMention(settings: ChannelSettings, groupId: string): boolean {
  const own = groupConfigFor(settings, groupId)?.config.requireMention;
  return own ?? groupConfigFor(settings, "*")?.config.requireMention ?? true;
}

/** The group's configured activation: `mention` unless `requireMention` is false. */
export function configuredActivation(settings: ChannelSettings, groupId: string): ActivationMode {
  return requireMention(settings, groupId) ? "mention" : "always";
}

/** The activation in force for a group session: its `/activation`, else the configured one. */
export function activationOf(session: SessionSettings, configured: ActivationMode): ActivationMode {
  return session.activation ?? configured;
}

/** What decides whether one group message runs the agent. */
export interface ActivationInput {
  activation: ActivationMode;
  /** The bot was mentioned (`detectMention`). */
  mentioned: boolean;
  /** The message was an owner-only command from someone else: it stays context and wakes nothing. */
  refusedCommand: boolean;
}

/** True when the message runs the agent; otherwise it is buffered as context for the next run. */
export function activates(input: ActivationInput): boolean {
  if (input.refusedCommand) return false;
  return input.mentioned || input.activation === "always";
}
