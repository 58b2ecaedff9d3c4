import { type Conversation, toChorusError } from "@chorus/core";
import type { Logger } from "pino";
import type { MessageToolCalls, TurnScope } from "../channels/message-tool.js";
import type { TurnTrigger } from "./run.js";

/** The error as chat members see it: the operator's model address stays in the log only. */
export function withoutModelAddress(message: string): string {
  return message.replace(/ \(model "[^"]*" at [^)]*\)/g, "");
}

/** What the chat sees when the agent could not answer (the full error goes to the log). */
export function failureNotice(agentName: string, error: unknown): string {
  return `⚠️ ${agentName} could not answer: ${withoutModelAddress(toChorusError(error).message)}`;
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
