import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { type ChannelPlugin, ChorusError, isChorusError, type z } from "@chorus/core";
import { ModelProviderMissingError } from "../agent/index.js";
import {
  type ChannelAccountConfig,
  ConfigError,
  type ConfigFinding,
  type ConfigIssue,
  channelAccounts,
  checkConfig,
  formatZodIssues,
  type GatewayConfig,
  gatewayConfigSchema,
  type LoadedConfig,
  parseConfigText,
  resolveLoadEntry,
  substituteEnv,
  validatePluginConfig,
} from "../config/index.js";
import { discoverChannels, findChannel, loadChannelPlugin, webchatBuiltin } from "../plugins/index.js";
import { type ChorusPaths, GATEWAY_PACKAGE_DIR } from "../support/index.js";
import { webchatConfigSchema } from "../webchat/index.js";
import { agentProviders } from "./providers.js";

/** Where the config file's name came from: `--config`, `CHORUS_CONFIG`, or the home's `chorus.json`. */
export type ConfigSource = "flag" | "env" | "home";

/** A configured channel whose plugin was found, loaded and accepted each account's config. */
export interface ValidatedChannel {
  id: string;
  plugin: ChannelPlugin<unknown>;
  accounts: { account: ChannelAccountConfig; config: unknown }[];
}

/** Everything `config check`, `doctor` and `start` learn from one validation pass. */
export interface Validation {
  file: string;
  exists: boolean;
  /** Every problem, errors first, each with its key path. */
  findings: ConfigFinding[];
  /** The config as far as it is valid (sections with errors fall back to their defaults). */
  config: GatewayConfig;
  /** Top-level sections the schema rejected: `config` holds their defaults there, not what the file says. */
  defaulted: string[];
  channels: ValidatedChannel[];
}

export interface ValidateOptions {
  paths: ChorusPaths;
  env: NodeJS.ProcessEnv;
  source: ConfigSource;
  /** The gateway's package directory (plugin discovery, model provider packages); default this package's. */
  gatewayDir?: string;
}

/**
 * The one validation (DESIGN §5): the gateway's schema, every configured channel's plugin (found,
 * loaded, its schema run on each account) and the cross-field rules — all problems in one pass.
 */
export async function validateInstallation(options: ValidateOptions): Promise<Validation> {
  const file = options.paths.config;
  const findings: ConfigFinding[] = [];
  const read = await readConfigText(file, options.source);
  if (read.finding) findings.push(read.finding);
  let raw: unknown = {};
  if (read.text !== undefined) {
    try {
      raw = parseConfigText(read.text, file);
    } catch (error) {
      const findings = fromError(error, file);
      const defaulted = Object.keys(gatewayConfigSchema.shape);
      return { file, exists: true, findings, config: defaults(), defaulted, channels: [] };
    }
  }
  const envPaths = new Set<string>();
  let substituted: unknown;
  try {
    substituted = substituteEnv(raw, options.env);
  } catch (error) {
    for (const issue of issuesOf(error)) envPaths.add(issue.path);
    findings.push(...fromError(error, file));
    // Go on with a stand-in for each missing variable, so the rest of the config is still checked.
    const standIn = new Proxy(options.env, { get: (env, name) => env[name as string] || "unset" });
    try {
      substituted = substituteEnv(raw, standIn);
    } catch {
      substituted = raw; // a malformed ${…} reference: its issue is listed; check the raw tree
    }
  }
  const notAnEnvPath = (finding: ConfigFinding) => !envPaths.has(finding.path);

  const parsed = gatewayConfigSchema.safeParse(substituted);
  if (!parsed.success) {
    const issues = formatZodIssues(parsed.error.issues, substituted, "", gatewayConfigSchema);
    findings.push(...issues.map((issue) => finding(issue, file)).filter(notAnEnvPath));
  }
  const config = parsed.success ? parsed.data : bySection(substituted);
  const shape = gatewayConfigSchema.shape;
  const defaulted = parsed.success
    ? []
    : [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? "")))].filter((key) => key in shape);
  config.plugins.load = config.plugins.load.map((entry) => resolveLoadEntry(entry, file));
  const loaded: LoadedConfig = { config, file, exists: read.text !== undefined };
  findings.push(...checkConfig(loaded, options.env));
  findings.push(...missingProviders(config, options.gatewayDir ?? GATEWAY_PACKAGE_DIR));

  const channels = await validateChannels(options, config, file, findings);
  const unique = new Map(findings.filter(notAnEnvPath).map((f) => [`${f.level}\n${f.path}\n${f.message}`, f]));
  const sorted = [...unique.values()].sort((a, b) => (a.level === b.level ? 0 : a.level === "error" ? -1 : 1));
  // Env problems are kept even though their paths are filtered from the schema's follow-up complaints.
  const envFindings = findings.filter((f) => envPaths.has(f.path) && f.message.includes("environment variable"));
  return { file, exists: loaded.exists, findings: [...envFindings, ...sorted], config, defaulted, channels };
}

/** The validation's errors as one error for `chorus start` (a plugin's own error when it is the only one). */
export function validationError(validation: Validation): Error | undefined {
  const errors = validation.findings.filter((f) => f.level === "error");
  const [first] = errors;
  if (first === undefined) return undefined;
  // One error behind every finding (a plugin that cannot load, one plugin's ConfigError): its own words.
  const cause = first.cause;
  if (cause !== undefined && errors.every((f) => f.cause === cause) && isChorusError(cause)) {
    return cause instanceof ConfigError && !cause.file ? cause.inFile(validation.file) : cause;
  }
  if (errors.length === 1 && first.path === "") {
    return new ChorusError("E_INVALID_INPUT", first.message, { hint: `Fix: ${first.fix}.` });
  }
  return new ConfigError(
    errors.map((f) => ({ path: f.path, message: f.message })),
    { file: validation.file },
  );
}

async function readConfigText(file: string, source: ConfigSource): Promise<{ text?: string; finding?: ConfigFinding }> {
  try {
    return { text: await readFile(file, "utf8") };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") {
      return {
        finding: {
          level: "error",
          path: "",
          message: `cannot read ${file}: ${(error as Error).message}`,
          fix: "make the path a readable file",
        },
      };
    }
    // No file in the home is no problem: the defaults apply (the webchat with the demo agent).
    if (source === "home") return {};
    const who = source === "flag" ? "--config" : "CHORUS_CONFIG";
    return {
      finding: {
        level: "error",
        path: "",
        message: `${who} names ${file}, which does not exist`,
        fix: `fix the path given to ${who}, or create the file`,
      },
    };
  }
}

async function validateChannels(
  options: ValidateOptions,
  config: GatewayConfig,
  file: string,
  findings: ConfigFinding[],
): Promise<ValidatedChannel[]> {
  const configured = Object.entries(config.channels);
  if (configured.length === 0) return [];
  const discovery = await discoverChannels({
    gatewayDir: options.gatewayDir ?? GATEWAY_PACKAGE_DIR,
    pluginsDir: options.paths.plugins,
    load: config.plugins.load,
    configDir: dirname(file),
    // The webchat is built in: named among the installed channels, validated by its own schema below.
    builtins: [webchatBuiltin()],
  });
  const validated: ValidatedChannel[] = [];
  for (const [id, block] of configured) {
    let accounts: ChannelAccountConfig[];
    try {
      accounts = channelAccounts(id, block);
    } catch (error) {
      findings.push(...fromError(error, file));
      continue;
    }
    // A built-in channel (the webchat) has no package to load: its own schema checks its block.
    if (discovery.channels.some((channel) => channel.id === id && channel.source === "builtin")) {
      for (const account of accounts) {
        const result = webchatConfigSchema.safeParse(account.pluginConfig);
        if (result.success) continue;
        const issues = formatZodIssues(result.error.issues, account.pluginConfig, account.path, webchatConfigSchema);
        findings.push(...issues.map((issue) => finding(issue, file)));
      }
      continue;
    }
    let plugin: ChannelPlugin<unknown>;
    try {
      plugin = await loadChannelPlugin(findChannel(id, discovery));
    } catch (error) {
      const reason = isChorusError(error) ? error : undefined;
      findings.push({
        level: "error",
        path: `channels.${id}`,
        message: (error as Error).message,
        fix: reason?.hint ?? "install the channel's package (`chorus plugins add …`) or remove the block",
        cause: error,
      });
      continue;
    }
    const channel: ValidatedChannel = { id, plugin, accounts: [] };
    for (const account of accounts) {
      try {
        channel.accounts.push({ account, config: await validatePluginConfig(plugin, account) });
      } catch (error) {
        findings.push(...fromError(error, file, `see the ${plugin.label} keys in the README of ${id}'s package`));
      }
    }
    validated.push(channel);
  }
  return validated;
}

/** An error for each agent whose model provider's package is not installed next to the gateway. */
function missingProviders(config: GatewayConfig, gatewayDir: string): ConfigFinding[] {
  return agentProviders(config, gatewayDir)
    .filter(({ found }) => found.installedVersion === undefined)
    .map(({ id, path, found }) => {
      const error = new ModelProviderMissingError(id, found);
      return { level: "error", path: `${path}.provider`, message: error.message, fix: found.install, cause: error };
    });
}

/** Each top-level section parsed on its own: a broken key falls back to its default, the rest is kept. */
function bySection(substituted: unknown): GatewayConfig {
  const input = (typeof substituted === "object" && substituted !== null ? substituted : {}) as Record<string, unknown>;
  const shape = gatewayConfigSchema.shape;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(shape) as (keyof typeof shape)[]) out[key] = lenient(shape[key], input[key]);
  return out as GatewayConfig;
}

/** `schema` applied to `input`, leaving out the keys its issues point at when the whole fails. */
function lenient(schema: z.ZodType, input: unknown): unknown {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  if (typeof input === "object" && input !== null && !Array.isArray(input)) {
    const bad = new Set(result.error.issues.map((issue) => issue.path[0]));
    const kept = Object.fromEntries(Object.entries(input).filter(([key]) => !bad.has(key)));
    const again = schema.safeParse(kept);
    if (again.success) return again.data;
  }
  return schema.parse(undefined);
}

function defaults(): GatewayConfig {
  return gatewayConfigSchema.parse({});
}

function issuesOf(error: unknown): ConfigIssue[] {
  if (error instanceof ConfigError) return error.issues;
  throw error;
}

/** The environment variable an error finding asks to set (an unset or empty `${NAME}`), if it is one. */
export function variableOf(finding: ConfigFinding): string | undefined {
  if (!(finding.cause instanceof ConfigError)) return undefined;
  return finding.cause.issues.find((issue) => issue.path === finding.path && issue.variable)?.variable;
}

function finding(issue: ConfigIssue, file: string, fix?: string, cause?: unknown): ConfigFinding {
  const variable = issue.variable;
  return {
    level: "error",
    path: issue.path,
    message: issue.message,
    fix:
      fix ??
      (variable
        ? `set ${variable} in the gateway's environment (export ${variable}=… or the service's environment file)`
        : issue.path
          ? `edit ${issue.path} in ${file}`
          : `edit ${file}`),
    ...(cause === undefined ? {} : { cause }),
  };
}

function fromError(error: unknown, file: string, fix?: string): ConfigFinding[] {
  return issuesOf(error).map((issue) => finding(issue, file, fix, error));
}
