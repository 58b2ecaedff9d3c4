import type { ChatType, ReactionLevel } from "@chorus/core";
import { buildSystemPrompt } from "../agent/index.js";
import type { ResolvedAgent } from "../config/index.js";
import type { ThinkLevel } from "../sessions/index.js";

export interface SystemTextInput {
  base: string;
  /** The group introduction (first turn of a group session, after /activation). */
  intro?: string | undefined;
  /** Summaries from `/compact`. */
  summaries: readonly string[];
  /** Notes since the last turn (reaction notifications). */
  events: readonly string[];
  /** `/think <level>`. */
  think?: ThinkLevel | undefined;
}

/** The system prompt of a turn: the agent's, then group, summary, event and thinking sections. */
export function systemText(input: SystemTextInput): string {
  const parts = [input.base];
  if (input.intro) parts.push(input.intro);
  if (input.summaries.length > 0) parts.push(`Summary of the conversation so far:\n${input.summaries.join("\n")}`);
  if (input.events.length > 0)
    parts.push(`System events since your last reply:\n${input.events.map((e) => `- ${e}`).join("\n")}`);
  if (input.think && input.think !== "off")
    parts.push(`Thinking level: ${input.think}. Reason step by step before you answer.`);
  return parts.join("\n\n");
}

/** What one turn's system prompt is made from. */
export interface TurnPromptInput extends Omit<SystemTextInput, "base"> {
  agent: Pick<ResolvedAgent, "name" | "systemPrompt">;
  channelLabel: string;
  chatType: ChatType;
  /** The channel's resolved `reactionLevel`: the guidance it adds (DESIGN §7). */
  reactionLevel: ReactionLevel;
}

/** The whole system prompt of one turn (see `buildSystemPrompt` and `systemText`). */
export function turnSystemPrompt(input: TurnPromptInput): string {
  const { agent, channelLabel, chatType, reactionLevel, ...sections } = input;
  return systemText({
    base: buildSystemPrompt({
      agentName: agent.name,
      ...(agent.systemPrompt !== undefined ? { basePrompt: agent.systemPrompt } : {}),
      channelLabel,
      chatType,
      reactionLevel,
    }),
    ...sections,
  });
}
