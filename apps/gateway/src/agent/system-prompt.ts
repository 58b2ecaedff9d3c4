import { type ReactionLevel, reactionGuidance } from "@chorus/core";

/** What the system prompt of one turn is made from. */
export interface SystemPromptInput {
  agentName: string;
  /** The agent's own prompt (`agents.list[].systemPrompt` or the defaults'); a default when absent. */
  basePrompt?: string;
  /** The channel's label (`Telegram`). */
  channelLabel: string;
  chatType: "direct" | "group";
  /** The channel's resolved `reactionLevel` (`resolveReactionLevel`). */
  reactionLevel: ReactionLevel;
  /** The time the turn runs at; default now. */
  now?: Date;
}

/** Builds the system prompt: the agent's prompt, where it is talking, and its reaction guidance (DESIGN §7). */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const base = input.basePrompt?.trim() || defaultPrompt(input.agentName);
  const sections = [base, contextSection(input)];
  const reactions = reactionSection(input.reactionLevel);
  if (reactions !== undefined) sections.push(reactions);
  return sections.join("\n\n");
}

function defaultPrompt(agentName: string): string {
  return [
    `You are ${agentName}, a helpful assistant that lives in the chat apps people already use.`,
    "Answer briefly and naturally, the way a person writes in a chat.",
  ].join(" ");
}

function contextSection(input: SystemPromptInput): string {
  const chat = input.chatType === "group" ? "a group chat" : "a direct (one-to-one) chat";
  const now = (input.now ?? new Date()).toISOString().slice(0, 16).replace("T", " ");
  return [
    `You are talking on ${input.channelLabel}, in ${chat}.`,
    "Your replies are sent as plain text messages: do not use Markdown tables, HTML or code fences unless asked.",
    `The current time is ${now} UTC.`,
  ].join(" ");
}

/**
 * The reactions section for a level: how to react, then core's guidance for the level (the same
 * sentence the tool description carries); none at `off` and `ack` (the agent cannot react then).
 */
export function reactionSection(level: ReactionLevel): string | undefined {
  const guidance = reactionGuidance(level);
  if (guidance === undefined) return undefined;
  return `Reactions: you can react to messages with the message tool (action react, emoji). ${guidance}`;
}
