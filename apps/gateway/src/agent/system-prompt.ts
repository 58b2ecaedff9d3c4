import type { ReactionLevel } from "@chorus/core";

/** What the system prompt of one turn is made from. */
export interface SystemPromptInput {
  agentName: string;
  /** The agent's own prompt (`agents.list[].systemPrompt` or the defaults'); a default when absent. */
  basePrompt?: string;
  /** The channel's label (`Telegram`). */
  channelLabel: string;
  chatType: "direct" | "group";
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

/** The reactions guidance for a level; `off` and `ack` give none (the agent cannot react then). */
export function reactionSection(level: ReactionLevel): string | undefined {
  if (level === "minimal") {
    return [
      "Reactions: you can react to a message with the message tool (action react, emoji).",
      "React sparingly: only when a reaction says more than words (an acknowledgement, a thank-you),",
      "at most one per message, and never instead of a reply that is needed.",
    ].join(" ");
  }
  if (level === "extensive") {
    return [
      "Reactions: you can react to messages with the message tool (action react, emoji).",
      "React freely where it fits the conversation: to acknowledge, agree, celebrate or show how you feel,",
      "in addition to replying when a reply is needed.",
    ].join(" ");
  }
  return undefined;
}
