import { ChorusError } from "@chorus/core";
import { pino } from "pino";
import { channelAccounts, validatePluginConfig } from "../config/index.js";
import { channelStateDir } from "../home.js";
import { createLogger } from "../log.js";
import { findChannel, loadChannelPlugin } from "../plugins/index.js";
import { cliContext, discoverInstalledChannels } from "./context.js";
import { renderQr } from "./qr.js";

export interface LoginOptions {
  config?: string;
  account?: string;
  phone?: string;
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
export async function loginCommand(channelId: string, options: LoginOptions, io: LoginIo = {}): Promise<void> {
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
  const abort = new AbortController();
  const onSigint = () => abort.abort(new ChorusError("E_AUTH", "login cancelled"));
  process.once("SIGINT", onSigint);
  const pending: Promise<void>[] = [];
  try {
    const result = await plugin.login({
      config: pluginConfig,
      accountId,
      stateDir: channelStateDir(ctx.paths, channelId, accountId),
      // Log lines go to stderr so they never break up the QR code on stdout.
      logger: createLogger({ verbose: options.verbose === true, destination: pino.destination(2) }).child({
        channel: channelId,
        account: accountId,
      }),
      signal: abort.signal,
      options: options.phone !== undefined ? { phone: options.phone } : {},
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
  }
}
