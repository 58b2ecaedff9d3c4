import { Redactor, secretsOf } from "@chorus/channel-kit";
import { type ChannelPlugin, ChorusError } from "@chorus/core";
import { pino } from "pino";
import { channelAccounts, gatewaySecrets, validatePluginConfig } from "../config/index.js";
import { findChannel, loadChannelPlugin } from "../plugins/index.js";
import { channelStateDir, createLogger, makePrivateDir } from "../support/index.js";
import { cliContext, discoverInstalledChannels, openCliState } from "./context.js";
import { parseLoginOptions } from "./login-options.js";
import { renderQr } from "./qr.js";

export interface LoginOptions {
  config?: string;
  account?: string;
  verbose?: boolean;
}

/** Where the login command writes (tests swap it). */
export interface LoginIo {
  out?: (text: string) => void;
  tty?: boolean;
  env?: NodeJS.ProcessEnv;
}

/**
 * `chorus channels login <channel>`: links an account of a channel that logs in as a device
 * (WhatsApp): shows the QR code or pairing code and stores the credentials where the gateway's
 * instance of that account reads them.
 */
export async function loginCommand(
  channelId: string,
  options: LoginOptions,
  io: LoginIo = {},
  /** The words after the channel that are the plugin's own login options (`--phone 4915…`). */
  pluginWords: readonly string[] = [],
): Promise<void> {
  const out = io.out ?? ((text: string) => process.stdout.write(text));
  const tty = io.tty ?? process.stdout.isTTY === true;
  const ctx = await cliContext(options, io.env);
  const { config } = ctx.loaded;
  const discovery = await discoverInstalledChannels(ctx);
  const plugin = await loadChannelPlugin(findChannel(channelId, discovery));
  if (!plugin.login) {
    throw new ChorusError(
      "E_UNSUPPORTED",
      `${plugin.label} does not link by logging in: its credentials go into channels.${channelId} in the config.`,
      { hint: `See the ${plugin.id} channel's README for the keys it needs.` },
    );
  }
  const block = (config.channels as Record<string, Record<string, unknown> | undefined>)[channelId] ?? {};
  const accounts = channelAccounts(channelId, block);
  const accountId = options.account ?? "default";
  const account = accounts.find((a) => a.accountId === accountId);
  if (!account) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `channels.${channelId} has no account "${accountId}"; configured: ${accounts.map((a) => a.accountId).join(", ")}.`,
      { hint: options.account ? "Pass one of the configured accounts to --account." : "Pass --account <name>." },
    );
  }
  const pluginConfig = await validatePluginConfig(plugin, account);
  const pluginOptions = parseLoginOptions(plugin as ChannelPlugin<unknown>, pluginWords);
  // Log lines go to stderr so they never break up the QR code on stdout; without a secret value.
  const redactor = new Redactor([
    ...gatewaySecrets(ctx.loaded.config, ctx.env),
    ...secretsOf(pluginConfig, plugin.secretKeys),
  ]);
  const logger = createLogger({ verbose: options.verbose === true, destination: pino.destination(2), redactor }).child({
    channel: channelId,
    account: accountId,
  });
  const abort = new AbortController();
  const onSigint = () => abort.abort(new ChorusError("E_AUTH", "login cancelled"));
  process.once("SIGINT", onSigint);
  const pending: Promise<void>[] = [];
  const state = await openCliState(ctx);
  try {
    const stateDir = channelStateDir(ctx.paths, channelId, accountId);
    makePrivateDir(stateDir);
    const result = await plugin.login({
      config: pluginConfig,
      accountId,
      // The store and the state dir the gateway's instance of this account uses.
      store: state.channelStore(channelId, accountId),
      stateDir,
      logger,
      signal: abort.signal,
      options: pluginOptions,
      showQr: (data) => {
        pending.push(
          renderQr(data, tty).then((text) =>
            out(`Scan this with ${plugin.label} on your phone (Linked devices → Link a device):\n${text}`),
          ),
        );
      },
      print: (line) => out(`${line}\n`),
    });
    await Promise.all(pending);
    const where = accountId === "default" ? "" : ` (account ${accountId})`;
    out(`Linked ${plugin.label}${where} as ${result.account}.\n`);
  } finally {
    process.off("SIGINT", onSigint);
    await state.close();
  }
}
