import { type InboundEvent, isChorusError, type Logger, type RefScope } from "@chorus/core";
import type { SignalConfig } from "./config.js";
import type { Directory } from "./directory.js";
import { groupIdOf, normalizeReceive, parseReceive } from "./inbound.js";
import type { SignalBot } from "./refs.js";

export interface InboundOptions {
  readonly config: SignalConfig;
  readonly logger: Logger;
  readonly directory: Directory;
  /** Who the bot is while the instance runs. */
  running(): { scope: RefScope; bot: SignalBot } | undefined;
  emit(event: InboundEvent): void;
}

/**
 * What happens to the `data` of each `receive` event, one at a time in the order they came:
 * parse (a warning naming what is wrong when it cannot), learn the sender's name, look up the
 * group, normalise, emit. Nothing here throws into the stream.
 */
export function createInbound(options: InboundOptions): (data: string) => void {
  const { config, logger, directory } = options;
  let queue = Promise.resolve();
  let wrongAccountWarned = false;

  const handle = async (data: string) => {
    const running = options.running();
    if (!running) return;
    const event = parseReceive(data);
    if (event.account !== undefined && event.account !== config.account) {
      if (!wrongAccountWarned) {
        logger.warn(
          { account: event.account },
          `signal: the daemon at ${config.httpUrl} receives for ${event.account}, not ${config.account}; its events are skipped`,
        );
        wrongAccountWarned = true;
      }
      return;
    }
    const envelope = event.envelope;
    if (event.exception) {
      const from = envelope?.sourceNumber ?? envelope?.sourceUuid ?? "someone";
      logger.warn(
        { type: event.exception.type },
        `signal: signal-cli could not read a message from ${from}: ${event.exception.message ?? event.exception.type}`,
      );
    }
    directory.learn(envelope?.sourceName, envelope?.sourceUuid, envelope?.sourceNumber);
    const groupId = groupIdOf(event);
    const changed = (envelope?.dataMessage ?? envelope?.syncMessage?.sentMessage)?.groupInfo?.type === "UPDATE";
    const group = groupId ? await directory.group(groupId, changed) : undefined;
    const out = normalizeReceive(event, {
      ...running,
      ...(group ? { group } : {}),
      nameOf: (id) => directory.nameOf(id),
    });
    if ("event" in out) options.emit(out.event);
    else logger.debug({ reason: out.ignored, timestamp: envelope?.timestamp }, "signal: ignored an envelope");
  };

  return (data) => {
    queue = queue
      .then(() => handle(data))
      .catch((error: unknown) => {
        const problem = isChorusError(error) ? error.message : String(error);
        logger.warn({ problem }, `signal: skipped a receive event it cannot read: ${problem}`);
      });
  };
}
