import type { ChannelPlugin } from "@chorus/core";
import { ConfigError, type ConfigIssue, formatZodIssues, segmentsOf } from "./errors.js";
import { type ChannelSettings, channelSettingsSchema, GATEWAY_CHANNEL_KEYS } from "./schema.js";
import { describeValue, formatPath, isPlainObject, isSecretPath, issueValue, valueAt } from "./values.js";

/** One account of one channel: the gateway's settings and the plugin's own config, already merged. */
export interface ChannelAccountConfig {
  channelId: string;
  /** `default`, or the name under `channels.<id>.accounts`. */
  accountId: string;
  settings: ChannelSettings;
  /** Everything in the block that is not a gateway key, for the plugin's `configSchema`. */
  pluginConfig: Record<string, unknown>;
  /** `channels.<id>` or `channels.<id>.accounts.<name>`: where this account is configured. */
  path: string;
  /** Plugin keys this account takes from the channel's top level (shared defaults). */
  inheritedKeys?: readonly string[];
}

/** One entry of `channels.<ch>.groups`. */
export type GroupConfig = NonNullable<ChannelSettings["groups"]>[string];

const ACCOUNT_NAME = /^[a-z0-9][a-z0-9_-]*$/i;
const GATEWAY_KEYS = new Set<string>(GATEWAY_CHANNEL_KEYS);

/**
 * Splits a `channels.<id>` block into its accounts: one `default` account, or one per name under
 * `accounts`, where an account's keys override the channel's top-level ones. Throws `ConfigError`.
 */
export function channelAccounts(channelId: string, block: Record<string, unknown>): ChannelAccountConfig[] {
  const base = formatPath(["channels", channelId]);
  const issues: ConfigIssue[] = [];
  const { accounts, ...rest } = block;
  const top = splitBlock(rest);
  const topSettings = validateSettings(top.gateway, base, issues);
  const result: ChannelAccountConfig[] = [];
  if (accounts === undefined) {
    result.push({ channelId, accountId: "default", settings: topSettings, pluginConfig: top.plugin, path: base });
  } else if (!isPlainObject(accounts)) {
    issues.push({
      path: `${base}.accounts`,
      message: `expected an object of named accounts like { work: { … }, home: { … } }, got ${describeValue(accounts)}`,
      value: accounts,
    });
  } else if (Object.keys(accounts).length === 0) {
    issues.push({
      path: `${base}.accounts`,
      message: "expected at least one account; remove accounts to run a single default account",
    });
  } else {
    for (const [name, value] of Object.entries(accounts)) {
      const account = accountConfig(channelId, name, value, { settings: topSettings, plugin: top.plugin }, issues);
      if (account) result.push(account);
    }
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return result;
}

function accountConfig(
  channelId: string,
  name: string,
  value: unknown,
  top: { settings: ChannelSettings; plugin: Record<string, unknown> },
  issues: ConfigIssue[],
): ChannelAccountConfig | undefined {
  const path = formatPath(["channels", channelId, "accounts", name]);
  if (!ACCOUNT_NAME.test(name)) {
    issues.push({
      path,
      message: `account names are letters, digits, - and _ and start with a letter or digit, got ${JSON.stringify(name)}`,
    });
    return undefined;
  }
  if (!isPlainObject(value)) {
    issues.push({ path, message: `expected an object with this account's keys, got ${describeValue(value)}`, value });
    return undefined;
  }
  const { accounts: nested, ...own } = value;
  if (nested !== undefined) {
    issues.push({ path: `${path}.accounts`, message: "accounts cannot be nested inside an account" });
    return undefined;
  }
  const parts = splitBlock(own);
  const settings = { ...top.settings, ...validateSettings(parts.gateway, path, issues) };
  const inheritedKeys = Object.keys(top.plugin).filter((key) => !Object.hasOwn(parts.plugin, key));
  return {
    channelId,
    accountId: name,
    settings,
    pluginConfig: { ...top.plugin, ...parts.plugin },
    path,
    inheritedKeys,
  };
}

function splitBlock(block: Record<string, unknown>): {
  gateway: Record<string, unknown>;
  plugin: Record<string, unknown>;
} {
  const gateway: Record<string, unknown> = {};
  const plugin: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(block)) {
    if (GATEWAY_KEYS.has(key)) gateway[key] = value;
    else plugin[key] = value;
  }
  return { gateway, plugin };
}

function validateSettings(part: Record<string, unknown>, path: string, issues: ConfigIssue[]): ChannelSettings {
  const result = channelSettingsSchema.safeParse(part);
  if (result.success) return result.data;
  issues.push(...formatZodIssues(result.error.issues, part, path, channelSettingsSchema));
  return {};
}

/**
 * Validates an account's plugin config with the plugin's Standard Schema; the result is what
 * `ctx.config` gets. Issues become a `ConfigError` named by the channel path.
 */
export async function validatePluginConfig(
  plugin: ChannelPlugin<unknown>,
  account: ChannelAccountConfig,
): Promise<unknown> {
  let result: Awaited<ReturnType<ChannelPlugin<unknown>["configSchema"]["~standard"]["validate"]>>;
  try {
    result = await plugin.configSchema["~standard"].validate(account.pluginConfig);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(
      [{ path: account.path, message: `the ${plugin.id} plugin's config schema failed: ${reason}` }],
      {
        cause: error,
      },
    );
  }
  if (!result.issues) return result.value;
  const issues = result.issues.flatMap((issue) => pluginIssue(plugin, account, issue));
  throw new ConfigError(issues, {
    hint: `Fix the ${plugin.label} keys listed above; the ${plugin.id} channel's README lists them.`,
  });
}

function pluginIssue(
  plugin: ChannelPlugin<unknown>,
  account: ChannelAccountConfig,
  issue: { readonly message: string; readonly path?: readonly unknown[] | undefined },
): ConfigIssue[] {
  const segments = segmentsOf(issue.path);
  const first = segments[0];
  const inherited = typeof first === "string" && account.inheritedKeys?.includes(first) === true;
  const prefix = inherited ? formatPath(["channels", account.channelId]) : account.path;
  const note = inherited ? ` (inherited by account ${JSON.stringify(account.accountId)})` : "";
  if (typeof (issue as { code?: unknown }).code === "string") {
    const formatted = formatZodIssues([issue], account.pluginConfig, prefix, plugin.configSchema);
    return formatted.map((entry) => ({ ...entry, message: entry.message + note }));
  }
  const value = valueAt(account.pluginConfig, segments);
  const secret = isSecretPath(segments);
  const got = value === undefined ? "" : ` (got ${describeValue(value, secret)})`;
  const entry: ConfigIssue = { path: formatPath(segments, prefix), message: `${issue.message}${got}${note}` };
  if (value !== undefined) entry.value = issueValue(value, secret);
  return [entry];
}

/** The `channels.<ch>.groups` entry that applies to a group (its own id, else `"*"`), with the key it came from. */
export function groupConfigFor(
  settings: ChannelSettings,
  groupId: string,
): { key: string; config: GroupConfig } | undefined {
  const groups = settings.groups;
  if (groups === undefined) return undefined;
  // Own keys only: a group called "constructor" or "__proto__" is not in every list.
  const own = Object.hasOwn(groups, groupId) ? groups[groupId] : undefined;
  if (own !== undefined) return { key: groupId, config: own };
  const any = Object.hasOwn(groups, "*") ? groups["*"] : undefined;
  return any === undefined ? undefined : { key: "*", config: any };
}
