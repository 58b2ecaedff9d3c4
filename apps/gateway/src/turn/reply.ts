export { withoutModelAddress } from "../agent/index.js";

/**
 * What chat members see when the agent could not answer: short and fixed, whatever failed. The
 * error itself goes to the log and to the owner's `/status`, never into the chat.
 */
export function failureNotice(agentName: string): string {
  return `⚠️ ${agentName} could not answer right now. Please try again in a moment.`;
}
