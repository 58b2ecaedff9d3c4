import { type Conversation, toChorusError } from "@chorus/core";
import type { Logger } from "pino";
import type { MessageToolCalls, TurnScope } from "../channels/message-tool.js";
import type { TurnTrigger } from "./run.js";

export { withoutModelAddress } from "../agent/failures.js";

/**
 * What chat members see when the agent could not answer: short and fixed, whatever failed. The
 * error itself goes to the log and to the owner's `/status`, never into the chat.
 */
export function failureNotice(agentName: string): string {
  return `⚠️ ${agentName} could not answer right now. Please try again in a moment.`;
}

/**
 * Sends the turn's reply into its conversation (in a group, as a reply to the triggering
 * message); returns the sent message's id, or `undefined` when sending failed (logged).
 */
export async function sendReply(
  tools: MessageToolCalls,
  reply: string,
  where: { conversation: Conversation; trigger: TurnTrigger | undefined; scope: TurnScope },
  log: { logger: Pick<Logger, "warn">; sessionKey: string },
): Promise<string | undefined> {
  const { conversation, trigger, scope } = where;
  try {
    const sent = await tools.execute(
      {
        action: "send",
        text: reply,
        ...(conversation.kind === "group" && trigger ? { replyTo: trigger.ref.messageId } : {}),
      },
      scope,
    );
    return sent.action === "send" ? sent.messageId : undefined;
  } catch (error) {
    log.logger.warn({ sessionKey: log.sessionKey, err: toChorusError(error).message }, "could not send the reply");
    return undefined;
  }
}
