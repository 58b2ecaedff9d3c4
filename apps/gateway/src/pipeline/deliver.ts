import { toChorusError } from "@chorus/core";
import type { Logger } from "pino";
import type { MessageToolCalls, TurnScope } from "../channels/index.js";
import type { GatewayMetrics } from "../metrics/index.js";
import { type OutboxRow, recordFate, type StateStore } from "../state/index.js";

/** Sends committed replies in order; resolves with each one's platform message id (undefined: not sent). */
export type Deliver = (rows: readonly OutboxRow[]) => Promise<(string | undefined)[]>;

/**
 * The deliver step, the only place a reply is sent — a turn's or the gateway's own, just
 * committed, or one a crash or a stopped channel left in the outbox (the schedule step resumes
 * those first, per session, in order). Each row is sent with its idempotency key and marked sent
 * with the platform's message id. A channel that is not running (`E_DISABLED`) leaves the row
 * pending for the next sweep; any other failure is final, logged, the row marked failed. A reply
 * that went out is marked sent also across an outage of the state (tried again until it is back).
 * Each attempt's error stays on the row (`chorus trace`) and is counted.
 */
export function createDeliver(options: {
  state: StateStore;
  tools: MessageToolCalls;
  logger: Pick<Logger, "warn">;
  metrics?: Pick<GatewayMetrics, "delivery"> | undefined;
}): Deliver {
  const { state, tools, logger, metrics } = options;
  const send = async (row: OutboxRow): Promise<string | undefined> => {
    const scope = row.scope as TurnScope;
    let messageId: string | undefined;
    try {
      const sent = await tools.execute(
        { action: "send", text: row.text, ...(row.replyTo !== undefined ? { replyTo: row.replyTo } : {}) },
        scope,
        { idempotencyKey: row.idempotencyKey, outboxId: row.id },
      );
      messageId = sent.action === "send" ? sent.messageId : undefined;
    } catch (error) {
      const failure = toChorusError(error);
      metrics?.delivery(row.channel, failure.code);
      const said = `${failure.code}: ${failure.message}`;
      if (failure.code === "E_DISABLED") {
        logger.warn({ sessionKey: row.sessionKey, err: failure.message }, "the reply waits in the outbox");
        // Best effort: the row stays pending whether or not its note is written.
        await state.outbox.markWaiting(row.id, said).catch(() => undefined);
        return undefined;
      }
      logger.warn({ sessionKey: row.sessionKey, err: failure.message }, "could not send the reply");
      await recordFate(() => state.outbox.markFailed(row.id, Date.now(), said));
      return undefined;
    }
    metrics?.delivery(row.channel);
    await recordFate(() => state.outbox.markSent(row, messageId, Date.now()));
    return messageId;
  };
  return async (rows) => {
    const ids: (string | undefined)[] = [];
    for (const row of rows) ids.push(await send(row));
    return ids;
  };
}
