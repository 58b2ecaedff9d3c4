import { access } from "node:fs/promises";
import { MemoryStore } from "@chorus/channel-kit/state";
import { type ChannelStore, toChorusError } from "@chorus/core";
import { ModelProviderMissingError } from "../agent/index.js";
import {
  agentModels,
  agentProviders,
  probeChannels,
  probeModel,
  type Validation,
  validateInstallation,
  variableOf,
} from "../checks/index.js";
import type { RemoteModelConfig } from "../config/index.js";
import { stateConfigOf } from "../runtime/index.js";
import { StateStore, sqliteFile } from "../state/index.js";
import { noConfigNote, printFindings } from "./config.js";
import { type CliContext, cliContext, cliPaths, gatewayEndpoint } from "./context.js";
import { callGateway, isNotChorus, isUnreachable } from "./http-client.js";
import { installationRedactor } from "./redaction.js";

export type Say = (level: "ok" | "warning" | "error" | "note", line: string, fix?: string) => void;

/**
 * `chorus doctor`: what cannot work, and how to fix it. The config (the same validation as `start`),
 * each agent's model endpoint, each channel account's platform and credentials (the plugin's
 * `probe`: nothing is started), the webhook URLs platforms must reach, and — when the gateway
 * runs — each channel's live status. Exits 1 when something cannot work.
 */
export async function doctorCommand(options: { config?: string; url?: string; token?: string }): Promise<void> {
  let failed = false;
  const located = cliPaths(options);
  const validation = await validateInstallation(located);
  // What a platform or a model server said back may echo a secret: no line shows one.
  const redactor = installationRedactor(validation, located.env);
  const say: Say = (level, line, fix) => {
    if (level === "error") failed = true;
    const mark = { ok: "✓", warning: "!", error: "✗", note: "-" }[level];
    const fixLine = fix && (level === "error" || level === "warning") ? `\n    fix: ${fix}` : "";
    process.stdout.write(redactor.text(`${mark} ${line}${fixLine}\n`));
  };
  const [major, minor] = process.versions.node.split(".").map(Number) as [number, number];
  const nodeOk = major > 20 || (major === 20 && minor >= 19);
  say(nodeOk ? "ok" : "error", `Node.js ${process.versions.node}`, "install Node.js 20.19 or newer");

  if (printFindings(validation.findings)) failed = true;
  if (!validation.findings.some((f) => f.level === "error")) {
    say("ok", validation.exists ? `config ${validation.file}` : noConfigNote(validation.file));
  }
  await checkModels(validation, located.env, say);
  await withState(validation, located.paths, say, (storeOf) => checkChannels(validation, located.paths, storeOf, say));

  let ctx: CliContext | undefined;
  try {
    ctx = await cliContext(options);
  } catch {
    // The config's problems are listed above; the live part needs a config that loads.
  }
  if (ctx) await reportLiveChannels(ctx, options, say);
  const home = located.paths.home;
  const exists = await access(home).then(
    () => true,
    () => false,
  );
  say("ok", `home ${home}${exists ? "" : " (will be created on first start)"}`);
  if (failed) process.exitCode = 1;
}

/**
 * Each agent's model (its own, else `agents.defaults.model`): its provider's package, installed
 * (with its version) or missing (with the command), then one request to its endpoint. An agent
 * whose model config has errors is neither ticked nor probed.
 */
async function checkModels(validation: Validation, env: NodeJS.ProcessEnv, say: Say): Promise<void> {
  const errors = validation.findings.filter((f) => f.level === "error");
  if (validation.defaulted.includes("agents")) {
    // The agents in `validation.config` are the defaults (the demo agent), not the file's.
    const scopes = new Set(errors.filter((f) => /^agents\b/.test(f.path)).map((f) => agentScope(f.path)));
    if (scopes.size === 0) say("note", "agents: not checked until the errors above are fixed");
    for (const scope of scopes) {
      say("error", `${scope}: cannot run until the error above is fixed, so its model is not checked`);
    }
    return;
  }
  const packages = new Map(agentProviders(validation.config).map((agent) => [agent.id, agent.found]));
  for (const { id, model, path } of agentModels(validation.config)) {
    const blocking = errors.filter(
      (f) => (f.path === path || f.path.startsWith(`${path}.`)) && !(f.cause instanceof ModelProviderMissingError),
    );
    if (blocking.length > 0) {
      const variables = [...new Set(blocking.map(variableOf).filter((name) => name !== undefined))];
      say(
        "error",
        variables.length > 0
          ? `agent ${id}: cannot run until ${variables.join(" and ")} ${variables.length > 1 ? "are" : "is"} set, so its model server is not probed`
          : `agent ${id}: cannot run until the error above at ${blocking[0]?.path} is fixed, so its model is not checked`,
      );
      continue;
    }
    if (model.provider === "demo") {
      say("ok", `agent ${id}: the offline demo model`);
      continue;
    }
    if (model.provider === "external") {
      say("ok", `agent ${id}: an outside agent answers (provider external; no model to probe)`);
      continue;
    }
    const found = packages.get(id);
    if (found?.installedVersion === undefined) {
      // The validation above already failed on it; this line says which package and how.
      if (found)
        say("error", `agent ${id}: provider ${model.provider}: ${found.packageName} is missing`, found.install);
      continue;
    }
    say("ok", `agent ${id}: provider ${model.provider}: ${found.packageName} ${found.installedVersion} installed`);
    const result = await probeModel(model as RemoteModelConfig, path, env);
    say(result.level, `agent ${id}: ${result.detail}`, result.fix);
  }
}

/** `agent at agents.list[0]`, `agents.defaults`, `agents`: the part of the agents section an error is in. */
function agentScope(path: string): string {
  const item = /^agents\.list\[\d+\]/.exec(path)?.[0];
  if (item) return `agent at ${item}`;
  return path.startsWith("agents.defaults") ? "agents.defaults (every agent without a model of its own)" : "agents";
}

/**
 * Opens the state the gateway keeps (SQLite or PostgreSQL) for the probes that read a stored link;
 * a state that cannot be opened is a finding of its own, and the probes then see an empty store.
 */
async function withState(
  validation: Validation,
  paths: Parameters<typeof probeChannels>[2],
  say: Say,
  use: (storeOf: (channel: string, accountId: string) => ChannelStore) => Promise<void>,
): Promise<void> {
  let state: StateStore | undefined;
  const config = stateConfigOf(validation.config);
  try {
    // Read what the gateway keeps; never create a database or import an old home from here.
    const exists =
      config.backend === "postgres" ||
      (await access(sqliteFile(paths.home, config)).then(
        () => true,
        () => false,
      ));
    if (exists) state = await StateStore.open(config, { home: paths.home });
  } catch (error) {
    say(
      "error",
      `state: ${toChorusError(error).message}`,
      toChorusError(error).hint ?? "check the state settings (docs/deployment.md)",
    );
  }
  try {
    await use((channel, accountId) => state?.channelStore(channel, accountId) ?? new MemoryStore());
  } finally {
    await state?.close();
  }
}

async function checkChannels(
  validation: Validation,
  paths: Parameters<typeof probeChannels>[2],
  storeOf: (channel: string, accountId: string) => ChannelStore,
  say: Say,
): Promise<void> {
  for (const check of await probeChannels(validation.channels, validation.config, paths, storeOf)) {
    const name = `channel ${check.channel} (${check.account})`;
    if (!check.result) {
      say("note", `${name}: its plugin has no probe; run \`chorus doctor\` while the gateway runs for its live status`);
      continue;
    }
    const { ok, detail, fix } = check.result;
    say(ok ? "ok" : "error", `${name}: ${detail}`, fix ?? "see the channel's README");
    for (const webhook of check.webhooks) say(webhook.level, `${name}: ${webhook.detail}`, webhook.fix);
  }
}

interface LiveChannel {
  id: string;
  account: string;
  status: { state: string; detail?: string; fix?: string };
}

/**
 * What only a running gateway knows: whether each channel reached its platform (servers,
 * credentials, webhooks, features such as BlueBubbles' Private API), from `GET /v1/channels`.
 */
async function reportLiveChannels(
  ctx: CliContext,
  overrides: { url?: string; token?: string },
  say: Say,
): Promise<void> {
  let channels: LiveChannel[];
  const endpoint = await gatewayEndpoint(ctx, {
    ...(overrides.url ? { url: overrides.url } : {}),
    ...(overrides.token ? { token: overrides.token } : {}),
  });
  try {
    channels = (await callGateway<{ channels: LiveChannel[] }>(endpoint, "GET", "/v1/channels")).channels;
  } catch (error) {
    if (isUnreachable(error)) {
      say("note", "the gateway is not running: the lines above are what can be checked without it");
      return;
    }
    const reason = toChorusError(error);
    if (isNotChorus(error)) {
      const move = overrides.url ? "" : `, move the gateway to a free port (gateway.port in ${ctx.loaded.file})`;
      say(
        "error",
        reason.message,
        `stop the program that listens at ${endpoint.url}${move}, or pass --url with the gateway's address`,
      );
    } else if (reason.code === "E_AUTH") {
      say(
        "error",
        `the running gateway refused the status request: ${reason.message}`,
        "pass the right token (--token or CHORUS_TOKEN)",
      );
    } else {
      say(
        "error",
        `the running gateway at ${endpoint.url} failed the status request: ${reason.message}`,
        reason.hint ?? "see the gateway's log (`--verbose` for more)",
      );
    }
    return;
  }
  for (const channel of channels) {
    if (channel.status.state === "failed") {
      // The platform refused the credentials: the gateway does not restart it; the fix names the key.
      say(
        "error",
        `running gateway: channel ${channel.id} (${channel.account}) failed: the platform refused its credentials — ${channel.status.detail ?? "no reason given"}`,
        channel.status.fix ?? `check the credentials in channels.${channel.id}, then restart the gateway`,
      );
      continue;
    }
    const ok = channel.status.state === "running";
    say(
      ok ? "ok" : "error",
      `running gateway: channel ${channel.id} (${channel.account}) ${channel.status.state}${channel.status.detail ? ` — ${channel.status.detail}` : ""}`,
      "see the lines above for this channel and the gateway log (`--verbose` for more)",
    );
  }
  await reportRefusals(endpoint.url, say);
}

/** An account's refused commits as `GET /readyz` reports them. */
interface ReadyAccount {
  channel: string;
  account: string;
  refused?: { windowMinutes: number; count: number; lastAt?: string; lastError?: string };
}

/**
 * The accounts whose inbound events the running gateway could not commit lately (from `GET /readyz`,
 * which needs no token), and a state it cannot reach: messages refused now are delivered again by
 * their platform, or kept by their channel, until the commit works.
 */
export async function reportRefusals(url: string, say: Say): Promise<void> {
  let report: { state?: { ready: boolean; detail?: string }; channels?: ReadyAccount[] };
  try {
    const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5_000) });
    report = (await response.json()) as typeof report;
  } catch {
    return; // A gateway without /readyz (an older one), or gone meanwhile: the lines above say enough.
  }
  if (report.state && !report.state.ready) {
    say(
      "error",
      `running gateway: state ${report.state.detail ?? "unreachable"}`,
      "check the state database (state.* in the config, docs/deployment.md); inbound events are refused until it answers",
    );
  }
  for (const { channel, account, refused } of report.channels ?? []) {
    if (!refused || refused.count === 0) continue;
    const last = refused.lastAt
      ? ` (last at ${refused.lastAt}${refused.lastError ? `: ${refused.lastError}` : ""})`
      : "";
    say(
      "warning",
      `running gateway: channel ${channel} (${account}): ${refused.count} inbound event${refused.count === 1 ? "" : "s"} refused in the last ${refused.windowMinutes} minutes — the commit failed${last}`,
      "see the gateway's log and `GET /readyz`; the platform delivers refused events again (or the channel keeps them) until a commit works",
    );
  }
}
