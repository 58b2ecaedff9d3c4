import { abortableDelay, backoffDelay } from "@chorus/channel-kit";
import { isStateUnavailable } from "./sql/state-errors.js";

/** Waits between attempts to record a message's fate while the state is unavailable: 0.25 s doubling to 5 s. */
const RECORD_RETRY = { initialMs: 250, maxMs: 5_000, jitter: 0.2 };

/**
 * Records what became of a message that went out (sent, failed), trying again while the state is
 * unavailable: one that went out and was not marked sent would be sent again once the state is back.
 */
export async function recordFate(write: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await write();
      return;
    } catch (error) {
      if (!isStateUnavailable(error)) throw error;
      await abortableDelay(backoffDelay(attempt, RECORD_RETRY));
    }
  }
}
