import { access } from "node:fs/promises";
import { channelAccounts, checkConfig, validatePluginConfig } from "../config/index.js";
import { findChannel, loadChannelPlugin } from "../plugins/index.js";
import { printFindings } from "./config.js";
import { type CliContext, cliContext, discoverInstalledChannels, gatewayEndpoint } from "./context.js";
import { callGateway, isUnreachable } from "./http-client.js";

/** `chorus doctor`: what is misconfigured or missing, and how to fix it. */
export async function doctorCommand(options: { config?: string; url?: string; token?: string }): Promise<void> {
  let failed = false;
  const say = (ok: boolean, line: string, fix?: string) => {
    if (!ok) failed = true;
    process.stdout.write(`${ok ? "✓" : "✗"} ${line}${!ok && fix ? `\n    fix: ${fix}` : ""}\n`);
  };
  const [major, minor] = process.versions.node.split(".").map(Number) as [number, number];
  say(
    major > 20 || (major === 20 && minor >= 19),
    `Node.js ${process.versions.node}`,
    "install Node.js 20.19 or newer",
  );
  let ctx: Awaited<ReturnType<typeof cliContext>>;
  try {
    ctx = await cliContext(options);
  } catch (error) {
    say(false, `config: ${(error as Error).message}`, "fix the config file, then run `chorus config check`");
    process.exitCode = 1;
    return;
  }
  say(true, ctx.loaded.exists ? `config ${ctx.loaded.file}` : `no config at ${ctx.loaded.file} (webchat + demo agent)`);
  if (printFindings(checkConfig(ctx.loaded, ctx.env))) failed = true;
  const config = ctx.loaded.config;
  const discovery = await discoverInstalledChannels(ctx);
  for (const problem of discovery.problems) say(false, `plugin: ${JSON.stringify(problem)}`);
  for (const [id, block] of Object.entries(config.channels)) {
    if (id === "webchat") continue;
    try {
      const plugin = await loadChannelPlugin(findChannel(id, discovery));
      for (const account of channelAccounts(id, block)) await validatePluginConfig(plugin, account);
      say(true, `channel ${id}: plugin loads and its config is valid`);
    } catch (error) {
      say(false, `channel ${id}: ${(error as Error).message}`);
    }
  }
  await reportLiveChannels(ctx, options, say);
  const writable = await access(ctx.paths.home).then(
    () => true,
    () => false,
  );
  say(true, `home ${ctx.paths.home}${writable ? "" : " (will be created on first start)"}`);
  if (failed) process.exitCode = 1;
}

interface LiveChannel {
  id: string;
  account: string;
  status: { state: string; detail?: string };
}

/**
 * What only a running gateway knows: whether each channel reached its platform (servers,
 * credentials, webhooks, features such as BlueBubbles' Private API), from `GET /v1/channels`.
 */
async function reportLiveChannels(
  ctx: CliContext,
  overrides: { url?: string; token?: string },
  say: (ok: boolean, line: string, fix?: string) => void,
): Promise<void> {
  let channels: LiveChannel[];
  try {
    channels = (
      await callGateway<{ channels: LiveChannel[] }>(
        await gatewayEndpoint(ctx, {
          ...(overrides.url ? { url: overrides.url } : {}),
          ...(overrides.token ? { token: overrides.token } : {}),
        }),
        "GET",
        "/v1/channels",
      )
    ).channels;
  } catch (error) {
    if (isUnreachable(error)) {
      process.stdout.write(
        "- the gateway is not running: start it (`chorus start`) and run `chorus doctor` again to check each channel's connection to its platform\n",
      );
      return;
    }
    say(
      false,
      `the running gateway refused the status request: ${(error as Error).message}`,
      "pass the right token (CHORUS_TOKEN)",
    );
    return;
  }
  for (const channel of channels) {
    const ok = channel.status.state === "running";
    say(
      ok,
      `channel ${channel.id} (${channel.account}): ${channel.status.state}${channel.status.detail ? ` — ${channel.status.detail}` : ""}`,
      "see the channel's README (setup on the real platform) and the gateway log",
    );
  }
}
