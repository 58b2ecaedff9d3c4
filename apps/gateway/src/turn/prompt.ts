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
  return parts.length === 1 ? input.base : parts.join("\n\n");
}

/** What one turn's system prompt is made from. */
export interface TurnPromptInput extends Omit<SystemTextInput, "base"> {
  agent: Pick<ResolvedAgent, "name" | "systemPrompt">;
  channelLabel: string;
  chatType: ChatType;
  /** The channel's resolved `reactionLevel`: the guidance it adds (DESIGN §7). */
  reactionLevel: ReactionLevel;
}

/**
 * The agent's part of the prompt, per agent, for the minute it names (it says the time): every turn
 * of that minute on the same channel and chat type reads the same text instead of building it again.
 */
const agentParts = new WeakMap<TurnPromptInput["agent"], { minute: number; texts: Map<string, string> }>();

function agentPart(input: TurnPromptInput, now: Date): string {
  const { agent, channelLabel, chatType, reactionLevel } = input;
  const minute = Math.floor(now.getTime() / 60_000);
  let kept = agentParts.get(agent);
  if (kept?.minute !== minute) {
    kept = { minute, texts: new Map() };
    agentParts.set(agent, kept);
  }
  const key = `${channelLabel}\u0000${chatType}\u0000${reactionLevel}`;
  let text = kept.texts.get(key);
  if (text === undefined) {
    text = buildSystemPrompt({
      agentName: agent.name,
      ...(agent.systemPrompt !== undefined ? { basePrompt: agent.systemPrompt } : {}),
      channelLabel,
      chatType,
      reactionLevel,
      now,
    });
    kept.texts.set(key, text);
  }
  return text;
}

/** The whole system prompt of one turn (see `buildSystemPrompt` and `systemText`). */
export function turnSystemPrompt(input: TurnPromptInput): string {
  const { agent: _agent, channelLabel: _label, chatType: _chatType, reactionLevel: _level, ...sections } = input;
  return systemText({ base: agentPart(input, new Date()), ...sections });
}
