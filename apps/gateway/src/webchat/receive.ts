import { createReceiver, type Receiver } from "@chorus/channel-kit";
import type { ChannelContext, RefScope } from "@chorus/core";
import type { WebchatConfig } from "./config.js";
import type { WebchatHub } from "./hub.js";
import { toInboundEvents } from "./inbound.js";
import type { HubEvent } from "./types.js";

/**
 * The one path from a hub change (a browser's frame) to `ctx.emit`, on the kit's shared receiver.
 * The hub cannot deliver anything again, so an event the gateway could not commit is kept and
 * emitted again until it is (`redelivery: "keep"`); it is let go when the instance stops.
 */
export function createWebchatReceiver(
  hub: WebchatHub,
  ctx: ChannelContext<WebchatConfig>,
  scope: RefScope,
): Receiver<HubEvent> {
  return createReceiver<HubEvent>({
    channel: "webchat",
    logger: ctx.logger,
    emit: (event) => ctx.emit(event),
    // Called at once (before the receiver's first await): the event is read against the hub as it is now.
    normalize: (event) => toInboundEvents(event, hub, scope),
    redelivery: "keep",
    signal: ctx.signal,
  });
}
