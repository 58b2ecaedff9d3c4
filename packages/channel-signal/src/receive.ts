import { createReceiver } from "@chorus/channel-kit";
import type { InboundEvent, Logger, RefScope } from "@chorus/core";
import type { SignalConfig } from "./config.js";
import type { Directory } from "./directory.js";
import { groupIdOf, normalizeReceive, parseReceive } from "./inbound.js";
import type { SignalBot } from "./refs.js";

export interface ReceiveOptions {
  readonly config: SignalConfig;
  readonly logger: Logger;
  readonly directory: Directory;
  /** `ctx.emit`: resolves once the gateway committed the event. */
  emit(event: InboundEvent): Promise<void>;
  /** Stopping the channel lets go of events kept for another commit (logged). */
  readonly signal: AbortSignal;
  /** Who the bot is while the instance runs. */
  running(): { scope: RefScope; bot: SignalBot } | undefined;
}

/**
 * The one glue from signal-cli's event stream to `ctx.emit`, on the kit's receiver. signal-cli
 * acknowledges an envelope to Signal's servers as soon as it stored it, and writes it to the
 * `/api/v1/events` stream once, with no event id and nothing for a client to acknowledge: an
 * event the gateway could not commit never comes again. So the receiver keeps it and emits it
 * again until it is committed (`redelivery: "keep"`). Each `data` is read in the order it came
 * (parse, learn the sender's name, look up the group, normalise), so events go to the gateway in
 * the stream's order; their commits overlap. What cannot be read is a warning naming the problem.
 */
export function createSignalReceive(options: ReceiveOptions): (data: string) => void {
  const { config, logger, directory } = options;
  let wrongAccountWarned = false;
  let inOrder: Promise<unknown> = Promise.resolve();

  const normalize = async (data: string): Promise<InboundEvent | undefined> => {
    const running = options.running();
    if (!running) return undefined;
    const event = parseReceive(data);
    if (event.account !== undefined && event.account !== config.account) {
      if (!wrongAccountWarned) {
        logger.warn(
          { account: event.account },
          `signal: the daemon at ${config.httpUrl} receives for ${event.account}, not ${config.account}; its events are skipped`,
        );
        wrongAccountWarned = true;
      }
      return undefined;
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
    if ("event" in out) return out.event;
    logger.debug({ reason: out.ignored, timestamp: envelope?.timestamp }, "signal: ignored an envelope");
    return undefined;
  };

  const receiver = createReceiver<string>({
    channel: "signal",
    logger,
    emit: (event) => options.emit(event),
    // One after another: a group lookup for one event never lets a later one overtake it.
    normalize: (data) => {
      const read = inOrder.then(() => normalize(data));
      inOrder = read.catch(() => undefined);
      return read;
    },
    redelivery: "keep",
    signal: options.signal,
  });
  // The receipt has nothing to tell signal-cli: the receiver has kept, committed or logged the event.
  return (data) => void receiver.receive(data);
}
