import { toChorusError } from "@chorus/core";
import type { Logger } from "pino";
import type { MessageToolCalls, TurnScope } from "../channels/index.js";
import type { OutboxRow, StateStore } from "../state/index.js";

/** Sends committed replies in order; resolves with each one's platform message id (undefined: not sent). */
export type Deliver = (rows: readonly OutboxRow[]) => Promise<(string | undefined)[]>;

/**
 * The deliver step, the only place a reply is sent — a turn's or the gateway's own, just
 * committed, or one a crash or a stopped channel left in the outbox (the schedule step resumes
 * those first, per session, in order). Each row is sent with its idempotency key and marked sent
 * with the platform's message id. A channel that is not running (`E_DISABLED`) leaves the row
 * pending for the next sweep; any other failure is final, logged, the row marked failed.
 */
export function createDeliver(options: {
  state: StateStore;
  tools: MessageToolCalls;
  logger: Pick<Logger, "warn">;
}): Deliver {
  const { state, tools, logger } = options;
  const send = async (row: OutboxRow): Promise<string | undefined> => {
    const scope = row.scope as TurnScope;
    let messageId: string | undefined;
    try {
      const sent = await tools.execute(
        { action: "send", text: row.text, ...(row.replyTo !== undefined ? { replyTo: row.replyTo } : {}) },
        scope,
        { idempotencyKey: row.idempotencyKey },
      );
      messageId = sent.action === "send" ? sent.messageId : undefined;
    } catch (error) {
      const failure = toChorusError(error);
      if (failure.code === "E_DISABLED") {
        logger.warn({ sessionKey: row.sessionKey, err: failure.message }, "the reply waits in the outbox");
        return undefined;
      }
      logger.warn({ sessionKey: row.sessionKey, err: failure.message }, "could not send the reply");
      await state.outbox.markFailed(row.id, Date.now());
      return undefined;
    }
    await state.outbox.markSent(row, messageId, Date.now());
    return messageId;
  };
  return async (rows) => {
    const ids: (string | undefined)[] = [];
    for (const row of rows) ids.push(await send(row));
    return ids;
  };
}
