import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { ConfigSource } from "../checks/index.js";
import { type LoadedConfig, loadConfig } from "../config/index.js";
import { type Discovery, discoverChannels } from "../plugins/index.js";
import { ensurePrivateHome, openGatewayState } from "../runtime/index.js";
import type { StateStore } from "../state/index.js";
import { type ChorusPaths, chorusPaths, GATEWAY_PACKAGE_DIR, resolveHome } from "../support/index.js";

/** What every command starts from: the installation's paths and its config. */
export interface CliContext {
  paths: ChorusPaths;
  env: NodeJS.ProcessEnv;
  loaded: LoadedConfig;
  /** Who named the config file: `--config`, `CHORUS_CONFIG`, or neither (`<home>/chorus.json`). */
  source: ConfigSource;
}

/** The installation's paths and where its config file's name came from, without reading it. */
export function cliPaths(
  options: { config?: string },
  env: NodeJS.ProcessEnv = process.env,
): { paths: ChorusPaths; env: NodeJS.ProcessEnv; source: ConfigSource } {
  const effectiveEnv = options.config ? { ...env, CHORUS_CONFIG: resolve(options.config) } : env;
  const paths = chorusPaths(resolveHome(effectiveEnv), effectiveEnv);
  const source: ConfigSource = options.config ? "flag" : env.CHORUS_CONFIG?.trim() ? "env" : "home";
  return { paths, env: effectiveEnv, source };
}

/** Reads `CHORUS_HOME` / `CHORUS_CONFIG` (or `--config`) and loads the config. */
export async function cliContext(
  options: { config?: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<CliContext> {
  const { paths, env: effectiveEnv, source } = cliPaths(options, env);
  const loaded = await loadConfig({ paths, env: effectiveEnv });
  return { paths, env: effectiveEnv, loaded, source };
}

/** Where the running gateway listens and the token to talk to it. */
export async function gatewayEndpoint(
  ctx: CliContext,
  overrides: { url?: string; token?: string },
): Promise<{ url: string; token: string }> {
  const { gateway } = ctx.loaded.config;
  const host = gateway.bind === "0.0.0.0" || gateway.bind === "::" ? "127.0.0.1" : gateway.bind;
  const url = overrides.url ?? `http://${host.includes(":") ? `[${host}]` : host}:${gateway.port}`;
  const token =
    overrides.token ??
    (ctx.env.CHORUS_TOKEN?.trim() || undefined) ??
    gateway.auth.token ??
    (await readFile(ctx.paths.tokenFile, "utf8").then(
      (text) => text.trim(),
      () => "",
    ));
  return { url: url.replace(/\/$/, ""), token };
}

/** The channel plugins this installation has (the gateway's packages, `<home>/plugins`, `plugins.load`). */
export function discoverInstalledChannels(ctx: CliContext): Promise<Discovery> {
  return discoverChannels({
    gatewayDir: GATEWAY_PACKAGE_DIR,
    pluginsDir: ctx.paths.plugins,
    load: ctx.loaded.config.plugins.load,
    configDir: dirname(ctx.loaded.file),
    builtins: [],
  });
}

/** The state layer the config names (SQLite in the home, or PostgreSQL), as the gateway opens it. */
export async function openCliState(ctx: CliContext): Promise<StateStore> {
  const { pino } = await import("pino");
  const logger = pino({ level: "warn" }, pino.destination(2));
  ensurePrivateHome(ctx.paths.home, logger);
  return openGatewayState(ctx.loaded.config, ctx.paths, logger);
}
