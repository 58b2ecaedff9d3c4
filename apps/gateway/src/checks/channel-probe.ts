import { Redactor, secretsOf } from "@chorus/channel-kit";
import { type ChannelProbeResult, type ChannelStore, silentLogger } from "@chorus/core";
import type { GatewayConfig } from "../config/index.js";
import { hookPath } from "../http/index.js";
import { type ChorusPaths, channelStateDir } from "../support/index.js";
import type { ValidatedChannel } from "./validate.js";
import { checkWebhook, type WebhookCheck } from "./webhooks.js";

/** One account's probe as the doctor prints it: secrets already removed. */
export interface ChannelCheck {
  channel: string;
  account: string;
  /** Undefined when the plugin has no probe. */
  result?: ChannelProbeResult;
  webhooks: WebhookCheck[];
}

/** Runs each configured account's `probe` (never `create`/`start`), then checks its webhook URLs. */
export async function probeChannels(
  channels: readonly ValidatedChannel[],
  config: GatewayConfig,
  paths: ChorusPaths,
  /** Each account's store, as the gateway keeps it (read by probes that check a stored link). */
  storeOf: (channel: string, accountId: string) => ChannelStore,
  timeoutMs = 10_000,
): Promise<ChannelCheck[]> {
  const checks: ChannelCheck[] = [];
  for (const { id, plugin, accounts } of channels) {
    for (const { account, config: pluginConfig } of accounts) {
      if (account.settings.enabled === false) continue;
      const check: ChannelCheck = { channel: id, account: account.accountId, webhooks: [] };
      checks.push(check);
      if (!plugin.probe) continue;
      const redactor = new Redactor(secretsOf(pluginConfig, plugin.secretKeys));
      let result: ChannelProbeResult;
      try {
        result = await plugin.probe({
          config: pluginConfig,
          accountId: account.accountId,
          stateDir: channelStateDir(paths, id, account.accountId),
          store: storeOf(id, account.accountId),
          logger: silentLogger,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        result = { ok: false, detail: `the probe failed: ${(error as Error).message}`, fix: "see the gateway log" };
      }
      check.result = {
        ...result,
        detail: redactor.text(result.detail),
        ...(result.fix ? { fix: redactor.text(result.fix) } : {}),
      };
      for (const webhook of result.webhooks ?? []) {
        const absolute = /^https?:\/\//.test(webhook);
        const url = absolute ? webhook : `${publicBase(config)}${hookPath(id, webhook)}`;
        const fix = absolute
          ? `set the channel's webhook URL to a public https address that reaches ${hookPath(id, `/${account.accountId}`)} on this gateway (docs/deployment.md)`
          : "set gateway.publicUrl to the https address a reverse proxy serves this gateway at (docs/deployment.md)";
        check.webhooks.push(checkWebhook(redactor.text(url), result.platformUrl, fix));
      }
    }
  }
  return checks;
}

/** The gateway's own address as platforms are told it: `gateway.publicUrl`, else from bind and port. */
export function publicBase(config: GatewayConfig): string {
  if (config.gateway.publicUrl) return config.gateway.publicUrl.replace(/\/$/, "");
  const bind = config.gateway.bind === "0.0.0.0" || config.gateway.bind === "::" ? "127.0.0.1" : config.gateway.bind;
  return `http://${bind.includes(":") ? `[${bind}]` : bind}:${config.gateway.port}`;
}
