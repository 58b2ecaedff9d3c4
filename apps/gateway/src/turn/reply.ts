import { toChorusError } from "@chorus/core";

/** The error as chat members see it: the operator's model address stays in the log only. */
export function withoutModelAddress(message: string): string {
  return message.replace(/ \(model "[^"]*" at [^)]*\)/g, "");
}

/** What the chat sees when the agent could not answer (the full error goes to the log). */
export function failureNotice(agentName: string, error: unknown): string {
  return `⚠️ ${agentName} could not answer: ${withoutModelAddress(toChorusError(error).message)}`;
}
