/** What the model answers to stay silent (DESIGN §4): the group intro and the heartbeat prompt teach it. */
export const NO_REPLY = "NO_REPLY";

const NO_REPLY_ANSWER = /^\s*no_reply\s*$/i;

/** True when the model's answer means "send nothing": empty, or exactly `NO_REPLY` (any case, whitespace around). */
export function isSilent(answer: string): boolean {
  return answer.trim() === "" || NO_REPLY_ANSWER.test(answer);
}
