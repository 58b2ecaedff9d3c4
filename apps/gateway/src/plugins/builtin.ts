import type { ChannelPlugin } from "@chorus/core";
import { GATEWAY_PACKAGE_DIR } from "../support/index.js";
import type { DiscoveredChannel } from "./discover.js";

/** The webchat as discovery names it: built into the gateway package (with its plugin where it will run). */
export function webchatBuiltin(plugin?: ChannelPlugin<unknown>): DiscoveredChannel {
  return {
    id: "webchat",
    packageName: "@chorus/gateway",
    version: "builtin",
    dir: GATEWAY_PACKAGE_DIR,
    manifest: { kind: "channel", id: "webchat", apiVersion: 1 },
    source: "builtin",
    ...(plugin ? { plugin } : {}),
  };
}
