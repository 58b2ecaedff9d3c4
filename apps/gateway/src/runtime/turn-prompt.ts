export interface SystemTextInput {
  base: string;
  /** The group introduction (first turn of a group session, after /activation). */
  intro?: string | undefined;
  /** Summaries from `/compact`. */
  summaries: readonly string[];
  /** Notes since the last turn (reaction notifications). */
  events: readonly string[];
  /** `/think <level>`. */
  think?: string | undefined;
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
