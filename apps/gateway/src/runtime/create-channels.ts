import { dirname } from "node:path";
import type { ChannelPlugin } from "@chorus/core";
import type { Logger } from "pino";
import { type ChannelRegistry, restartBackoffFromEnv } from "../channels/index.js";
import type { LoadedConfig, ResolvedAgent } from "../config/index.js";
import { HookRegistry } from "../http/index.js";
import type { Receive } from "../pipeline/index.js";
import { discoverChannels, webchatBuiltin } from "../plugins/index.js";
import type { StateStore } from "../state/index.js";
import { type ChorusPaths, GATEWAY_PACKAGE_DIR } from "../support/index.js";
import { createWebchatPlugin, type WebchatMediaStore, WebchatSite } from "../webchat/index.js";
import { type Account, configureAccounts } from "./accounts.js";

/** The configured channel accounts, ready to start, and what serves them. */
export interface ChannelsHandle {
  accounts: Account[];
  /** Webhook routes the plugins registered (`/hooks/<channel>/…`). */
  hooks: HookRegistry;
  /** The built-in webchat as the HTTP assembly serves it: its page and socket reach the running instance's hub. */
  webchat: WebchatSite;
  /** Stops every account's supervisor. */
  close(): Promise<void>;
}

/**
 * Finds the configured channels (the built-in webchat among them), loads their plugins and makes
 * one supervised account per configured account, its `ctx.emit` going to `receive`. Nothing is
 * started here.
 */
export async function createChannels(options: {
  loaded: LoadedConfig;
  paths: ChorusPaths;
  agents: readonly ResolvedAgent[];
  state: StateStore;
  registry: ChannelRegistry;
  receive: Receive;
  /** The gateway's media store, where the webchat keeps its media. */
  media?: WebchatMediaStore;
  /** A delivery a channel account could not read. */
  onUnreadable?(channel: string, account: string, problem: string): void;
  /** The gateway's public URL once it listens (for webhook registration). */
  publicUrl(): string;
  logger: Logger;
  gatewayDir?: string;
}): Promise<ChannelsHandle> {
  const { loaded, paths, logger } = options;
  const config = loaded.config;
  const webchat = new WebchatSite({ botName: options.agents.find((a) => a.isDefault)?.name ?? "Chorus" });
  const channelsConfig: Record<string, Record<string, unknown>> = { ...config.channels };
  // The webchat is reached only with the gateway token: whoever has it is trusted (and an owner).
  channelsConfig.webchat = { dmPolicy: "open", groupPolicy: "open", allowFrom: ["*"], ...config.channels.webchat };
  const discovery = await discoverChannels({
    gatewayDir: options.gatewayDir ?? GATEWAY_PACKAGE_DIR,
    pluginsDir: paths.plugins,
    load: config.plugins.load,
    configDir: dirname(loaded.file),
    builtins: [webchatBuiltin(createWebchatPlugin(webchat, { media: options.media }) as ChannelPlugin<unknown>)],
  });
  for (const problem of discovery.problems) logger.warn({ problem }, "plugin discovery problem");
  const hooks = new HookRegistry();
  const accounts = await configureAccounts({
    channelsConfig,
    discovery,
    paths,
    state: options.state,
    logger,
    hooks,
    registry: options.registry,
    restartBackoff: restartBackoffFromEnv(),
    publicUrl: options.publicUrl,
    receive: options.receive,
    ...(options.onUnreadable ? { onUnreadable: options.onUnreadable } : {}),
  });
  return {
    accounts,
    hooks,
    webchat,
    close: async () => {
      await Promise.all(options.registry.all().map((entry) => entry.supervisor.stop()));
    },
  };
}
