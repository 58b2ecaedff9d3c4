import { isChorusError, performReaction, type ReactCall, toChorusError } from "@chorus/core";
import type { ReactionLogger, ReactionTarget } from "./target.js";

/**
 * Performs one reaction call through core's rules; a failure is logged and reported as false,
 * never thrown (a runtime reaction must not block the reply).
 */
export async function tryReaction(
  target: ReactionTarget,
  call: ReactCall,
  logger: ReactionLogger,
  purpose: string,
): Promise<boolean> {
  try {
    await performReaction({ plugin: target.plugin, instance: target.instance, ref: target.ref, call });
    return true;
  } catch (error) {
    logFailure(logger, target, purpose, error);
    return false;
  }
}

/**
 * Adds the first of `candidates` the platform accepts (a refusal of the emoji moves on to the
 * next one); returns the emoji placed, or undefined when none could be.
 */
export async function addFirstAccepted(
  target: ReactionTarget,
  candidates: readonly string[],
  logger: ReactionLogger,
  purpose: string,
): Promise<string | undefined> {
  for (const emoji of candidates) {
    try {
      await performReaction({ plugin: target.plugin, instance: target.instance, ref: target.ref, call: { emoji } });
      return emoji;
    } catch (error) {
      if (isChorusError(error) && error.code === "E_UNSUPPORTED_EMOJI") {
        logger.debug({ ...where(target), emoji, purpose }, "reaction not allowed here, trying the next one");
        continue;
      }
      logFailure(logger, target, purpose, error);
      return undefined;
    }
  }
  if (candidates.length > 0) {
    logger.debug({ ...where(target), candidates, purpose }, "no allowed reaction among the candidates");
  }
  return undefined;
}

function logFailure(logger: ReactionLogger, target: ReactionTarget, purpose: string, error: unknown): void {
  const failure = toChorusError(error);
  logger.warn({ ...where(target), purpose, code: failure.code, err: failure.message }, `${purpose} reaction failed`);
}

function where(target: ReactionTarget) {
  return {
    channel: target.ref.channel,
    accountId: target.ref.accountId,
    conversationId: target.ref.conversationId,
    messageId: target.ref.messageId,
  };
}
