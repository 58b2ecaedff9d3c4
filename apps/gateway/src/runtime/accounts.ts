import type { BackoffPolicy } from "@chorus/channel-kit";
import { Redactor, secretsOf } from "@chorus/channel-kit";
import { accountCapabilities, type ChannelContext, type ChannelPlugin, type InboundEvent } from "@chorus/core";
import type { Logger } from "pino";
import {
  type AccountKey,
  accountKey,
  type ChannelEntry,
  type ChannelRegistry,
  ChannelSupervisor,
  runAsChannel,
  runAsGateway,
} from "../channels/index.js";
import { channelAccounts, validatePluginConfig } from "../config/index.js";
import { type HookRegistry, hookPath } from "../http/index.js";
import { watchUnreadable } from "../metrics/index.js";
import { type Discovery, findChannel, loadChannelPlugin } from "../plugins/index.js";
import { isStateUnavailable, type StateStore } from "../state/index.js";
import { type ChorusPaths, channelStateDir, makePrivateDir } from "../support/index.js";

/** One configured channel account, and how to run it (again, after a lease was lost and retaken). */
export interface Account {
  key: AccountKey;
  entry: ChannelEntry;
  /** Runs under a lease when several gateways share the database (`plugin.holdsConnection`). */
  holdsConnection: boolean;
  /** A fresh supervisor for it (a stopped one cannot start again). */
  supervise(): ChannelSupervisor;
}

export interface AccountsOptions {
  channelsConfig: Record<string, Record<string, unknown>>;
  discovery: Discovery;
  paths: ChorusPaths;
  state: StateStore;
  logger: Logger;
  hooks: HookRegistry;
  registry: ChannelRegistry;
  restartBackoff: BackoffPolicy;
  publicUrl(): string;
  /** Commits an inbound event; resolves once committed (the pipeline's receive step). */
  receive(entry: ChannelEntry, event: InboundEvent): Promise<void>;
  /** A delivery the account's channel could not read (its receiver's warning with `receipt: "unreadable"`). */
  onUnreadable?(channel: string, account: string, problem: string): void;
}

/** Loads the configured plugins and makes one supervised account per configured channel account. */
export async function configureAccounts(options: AccountsOptions): Promise<Account[]> {
  const { channelsConfig, discovery, paths, state, logger, hooks } = options;
  const accounts: Account[] = [];
  for (const [channelId, block] of Object.entries(channelsConfig)) {
    const configured = channelAccounts(channelId, block);
    if (configured.every((a) => a.settings.enabled === false)) continue;
    const found = findChannel(channelId, discovery);
    const plugin = await loadChannelPlugin(found);
    for (const account of configured) {
      if (account.settings.enabled === false) continue;
      const pluginConfig = await validatePluginConfig(plugin, account);
      // Every line, error and status of this account passes through its redactor: its secrets never show.
      const redactor = new Redactor(secretsOf(pluginConfig, plugin.secretKeys));
      const channelLogger = logger.child({ channel: channelId, account: account.accountId });
      // Whatever a plugin keeps there (a linked device's keys) is readable by this user only.
      const stateDir = channelStateDir(paths, channelId, account.accountId);
      makePrivateDir(stateDir);
      // The channel's unreadable deliveries are counted from its (redacted) warnings.
      const pluginLogger = redactor.logger(
        watchUnreadable(channelLogger, (problem) => options.onUnreadable?.(channelId, account.accountId, problem)),
      );
      const emit = (event: InboundEvent): Promise<void> => {
        const committed = runAsGateway(() => options.receive(entry, event));
        // A plugin that ignores the promise must not turn a failed commit into an unhandled rejection.
        // (A state that is unavailable is said once by the pipeline, not for every event.)
        committed.catch((error: unknown) => {
          if (isStateUnavailable(error)) return;
          channelLogger.error(
            { err: (error as Error).message, eventId: event.eventId },
            "could not commit an inbound event",
          );
        });
        return committed;
      };
      const supervise = (): ChannelSupervisor => {
        const supervisor: ChannelSupervisor = new ChannelSupervisor({
          plugin,
          accountId: account.accountId,
          logger: pluginLogger,
          backoff: options.restartBackoff,
          redactor,
          context: (signal): ChannelContext<unknown> => ({
            config: pluginConfig,
            accountId: account.accountId,
            store: state.channelStore(channelId, account.accountId),
            stateDir,
            logger: pluginLogger,
            signal,
            emit,
            http: {
              route: (method, path, handler) => {
                hooks.register(channelId, method, path, (request) =>
                  runAsChannel(entry.supervisor, () => handler(request)),
                );
              },
              url: (path) => `${options.publicUrl()}${hookPath(channelId, path)}`,
            },
          }),
        });
        return supervisor;
      };
      const key = accountKey(channelId, account.accountId);
      const entry: ChannelEntry = {
        plugin,
        capabilities: accountCapabilities(plugin, pluginConfig),
        accountId: account.accountId,
        key,
        builtin: found.source === "builtin",
        settings: account.settings,
        supervisor: supervise(),
        redactor,
      };
      options.registry.add(entry);
      accounts.push({ key, entry, holdsConnection: holdsConnection(plugin, pluginConfig), supervise });
    }
  }
  return accounts;
}

/** The plugin's word on whether this account holds a connection; a plugin that says nothing does. */
function holdsConnection(plugin: ChannelPlugin<unknown>, config: unknown): boolean {
  try {
    return plugin.holdsConnection ? plugin.holdsConnection(config) !== false : true;
  } catch {
    return true;
  }
}
