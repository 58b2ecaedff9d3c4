import { type ChannelPlugin, isChorusError } from "@chorus/core";

/** True when the platform refused the account's credentials (`E_AUTH`): restarting would not help. */
export function isCredentialRefusal(error: unknown): boolean {
  return isChorusError(error) && error.code === "E_AUTH";
}

/**
 * What to do about refused credentials, naming the config key: the plugin's hint when its error
 * has one (`Check channels.telegram.botToken …`), else its login command or its secret keys.
 */
export function credentialFix(
  plugin: Pick<ChannelPlugin<unknown>, "id" | "secretKeys" | "login">,
  accountId: string,
  error: unknown,
  retryMs: number,
): string {
  const block = accountId === "default" ? `channels.${plugin.id}` : `channels.${plugin.id}.accounts.${accountId}`;
  const keys = (plugin.secretKeys ?? []).map((key) => `${block}.${key}`);
  const hint = isChorusError(error) ? error.hint?.trim() : undefined;
  const what =
    hint ||
    (plugin.login
      ? `Link the account again: chorus channels login ${plugin.id}${accountId === "default" ? "" : ` --account ${accountId}`}.`
      : keys.length > 0
        ? `Check ${keys.join(" and ")}.`
        : `Check the credentials in ${block}.`);
  return `${what} Then restart the gateway, or wait: the account tries again every ${describeMs(retryMs)}.`;
}

function describeMs(ms: number): string {
  if (ms % 60_000 === 0) return ms === 60_000 ? "minute" : `${ms / 60_000} minutes`;
  if (ms % 1000 === 0) return ms === 1000 ? "second" : `${ms / 1000} seconds`;
  return `${ms} ms`;
}
