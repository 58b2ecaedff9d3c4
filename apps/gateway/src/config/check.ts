import { existsSync, statSync } from "node:fs";
import { isIPv4 } from "node:net";
import { dirname, join } from "node:path";
import { resolveAgents } from "./agents.js";
import { type ChannelAccountConfig, channelAccounts } from "./channels.js";
import { ConfigError } from "./errors.js";
import type { LoadedConfig } from "./load.js";
import { isPathEntry, resolveLoadEntry } from "./load-entry.js";
import { API_KEY_ENV, type ModelConfig } from "./schema.js";
import { formatPath, isPlainObject, type PathSegment } from "./values.js";

export { isPathEntry, resolveLoadEntry } from "./load-entry.js";

/** One result of `chorus config check` / `chorus doctor`: what is wrong or risky, where, and how to fix it. */
export interface ConfigFinding {
  level: "error" | "warning";
  path: string;
  message: string;
  fix: string;
  /** The error behind an error finding, when there was one (a plugin that failed to load). */
  cause?: unknown;
}

/** True for addresses only this machine can reach: 127.0.0.0/8, ::1, localhost. */
export function isLoopback(bind: string): boolean {
  const host = bind
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (host === "localhost" || host === "localhost." || host.endsWith(".localhost")) return true;
  if (host === "::1" || host === "0:0:0:0:0:0:0:1") return true;
  const v4 = host.startsWith("::ffff:") ? host.slice("::ffff:".length) : host;
  return isIPv4(v4) && v4.startsWith("127.");
}

/** The cross-field rules over a config the schema accepted: everything wrong or risky, errors first. */
export function checkConfig(loaded: LoadedConfig, env: NodeJS.ProcessEnv = {}): ConfigFinding[] {
  const findings: ConfigFinding[] = [];
  const { config, file } = loaded;

  if (!isLoopback(config.gateway.bind) && config.gateway.auth.token === undefined) {
    findings.push({
      level: "error",
      path: "gateway.bind",
      message: `gateway.bind is ${JSON.stringify(config.gateway.bind)}, reachable from other machines, and gateway.auth.token is not set: refused at start`,
      fix: `set gateway.auth.token to a secret of at least 16 characters (e.g. "\${CHORUS_GATEWAY_TOKEN}"), or bind to 127.0.0.1`,
    });
  }

  try {
    resolveAgents(config);
  } catch (error) {
    findings.push(...fromConfigError(error, file));
  }
  checkModel(config.agents.defaults.model, ["agents", "defaults", "model"], findings, env);
  config.agents.list?.forEach((agent, index) => {
    checkModel(agent.model, ["agents", "list", index, "model"], findings, env);
  });

  for (const [channelId, block] of Object.entries(config.channels)) checkChannel(channelId, block, file, findings);

  config.plugins.load.forEach((entry, index) => {
    checkLoadEntry(entry, index, file, findings);
  });

  const unique = new Map(findings.map((finding) => [`${finding.path}\n${finding.message}`, finding]));
  return [...unique.values()].sort((a, b) => (a.level === b.level ? 0 : a.level === "error" ? -1 : 1));
}

function fromConfigError(error: unknown, file: string): ConfigFinding[] {
  if (!(error instanceof ConfigError)) throw error;
  return error.issues.map((issue) => ({
    level: "error",
    path: issue.path,
    message: issue.message,
    fix: `edit ${issue.path || "the config"} in ${file}`,
  }));
}

function checkModel(
  model: ModelConfig | undefined,
  path: PathSegment[],
  findings: ConfigFinding[],
  env: NodeJS.ProcessEnv,
): void {
  if (model === undefined || model.provider === "demo" || model.provider === "ollama" || model.provider === "external")
    return;
  if (model.provider !== "openai-compatible") {
    const variable = API_KEY_ENV[model.provider];
    if (model.apiKey !== undefined || env[variable]?.trim()) return;
    findings.push({
      level: "error",
      path: formatPath([...path, "apiKey"]),
      message: `no API key for the ${model.provider} model ${JSON.stringify(model.model)}: apiKey is not set and neither is ${variable}`,
      fix: `set apiKey: "\${${variable}}" and export ${variable}=<your key> before starting`,
    });
    return;
  }
  if (model.apiKey !== undefined) return;
  findings.push({
    level: "warning",
    path: formatPath([...path, "apiKey"]),
    message: `no apiKey for model ${JSON.stringify(model.model)} at ${model.baseURL}: requests go without a key (fine for a local Ollama or vLLM, refused by hosted APIs)`,
    fix: `set apiKey, e.g. "\${OPENAI_API_KEY}"`,
  });
}

function checkChannel(
  channelId: string,
  block: Record<string, unknown>,
  file: string,
  findings: ConfigFinding[],
): void {
  let accounts: ChannelAccountConfig[];
  try {
    accounts = channelAccounts(channelId, block);
  } catch (error) {
    findings.push(...fromConfigError(error, file));
    return;
  }
  /** Where a key of an account is set: in the account itself, or shared at the channel's top level. */
  const where = (account: ChannelAccountConfig, key: string): { path: string; label: string } => {
    const own = isPlainObject(block.accounts) ? block.accounts[account.accountId] : undefined;
    return isPlainObject(own) && Object.hasOwn(own, key)
      ? { path: `${account.path}.${key}`, label: `account ${account.accountId} of ${channelId}` }
      : { path: formatPath(["channels", channelId, key]), label: `channel ${channelId}` };
  };
  for (const account of accounts) {
    const { settings } = account;
    const at = (key: string) => where(account, key);
    if (settings.enabled === false) {
      const { path, label } = at("enabled");
      findings.push({
        level: "warning",
        path,
        message: `${label} is disabled: it is not started`,
        fix: "remove enabled: false to start it",
      });
    }
    if (settings.dmPolicy === "open" && settings.allowFrom !== undefined && settings.allowFrom.length > 0) {
      const { path, label } = at("allowFrom");
      findings.push({
        level: "warning",
        path,
        message: `allowFrom is ignored for direct messages on ${label} because dmPolicy is "open" (anyone can write)`,
        fix: 'remove allowFrom, or set dmPolicy: "allowlist" to answer only those senders',
      });
    }
    if (settings.reactionNotifications === "allowlist" && !settings.reactionAllowlist?.length) {
      const { path, label } = at("reactionAllowlist");
      findings.push({
        level: "warning",
        path,
        message: `reactionNotifications is "allowlist" but reactionAllowlist is empty: no reaction reaches the agent on ${label}`,
        fix: 'list the senders in reactionAllowlist, or set reactionNotifications: "own"',
      });
    }
  }
}

function checkLoadEntry(entry: string, index: number, file: string, findings: ConfigFinding[]): void {
  if (!isPathEntry(entry)) return;
  const path = formatPath(["plugins", "load", index]);
  const resolved = resolveLoadEntry(entry, file);
  const relativeNote = ` (relative paths are resolved against ${dirname(file)})`;
  if (!existsSync(resolved)) {
    findings.push({
      level: "error",
      path,
      message:
        entry === resolved
          ? `${resolved} does not exist`
          : `${JSON.stringify(entry)} resolves to ${resolved}, which does not exist`,
      fix: `fix the path${relativeNote}`,
    });
    return;
  }
  if (statSync(resolved).isDirectory() && !existsSync(join(resolved, "package.json"))) {
    findings.push({
      level: "warning",
      path,
      message: `${resolved} has no package.json, so it has no chorus manifest and cannot be loaded`,
      fix: `point the entry at a channel package directory${relativeNote}`,
    });
  }
}
