import { createReceiver, type Receiver } from "@chorus/channel-kit";
import type { ChannelContext, Logger, RefScope } from "@chorus/core";
import type { AcmeConfig } from "./config.js";
import { normalizeDelivery } from "./inbound.js";

/** One verified webhook request: its raw body, and who the bot is while it runs. */
export interface AcmeDeliveryIn {
  raw: Buffer;
  bot: RefScope;
}

/**
 * The one glue from an Acme delivery to `ctx.emit`, on the kit's receiver, which decides whether
 * Acme gets its acknowledgement (a 2xx): only once the gateway committed the event. Acme posts a
 * delivery again when it was not answered 2xx (`redelivery: "platform"`), so a failed commit is
 * answered 503 and comes back. A body it cannot read throws here: the receiver logs a warning
 * naming what is wrong, and it is acknowledged, since the same bytes again would not help.
 */
export function createReceive(ctx: ChannelContext<AcmeConfig>, logger: Logger): Receiver<AcmeDeliveryIn> {
  return createReceiver({
    channel: "acme",
    logger,
    emit: (event) => ctx.emit(event),
    normalize: ({ raw, bot }) => normalizeDelivery(JSON.parse(raw.toString("utf8")), bot),
    redelivery: "platform",
    signal: ctx.signal,
  });
}
