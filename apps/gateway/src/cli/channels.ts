import { type ChorusError, toChorusError } from "@chorus/core";
import { installCommandFor, webchatBuiltin } from "../plugins/index.js";
import { cliContext, discoverInstalledChannels, gatewayEndpoint } from "./context.js";
import { callGateway, isUnreachable } from "./http-client.js";
import { reportError } from "./output.js";

interface RunningChannel {
  id: string;
  account: string;
  status: { state: string; detail?: string };
  /** The gateway that runs this account (with several gateways: the lease holder; "" while none does). */
  holder?: string | null;
  /** Runs under a lease (several gateways on one database, a connection-holding account). */
  leased?: boolean;
  capabilities: { reactions: Record<string, unknown> };
  /** Absent from gateways older than this CLI. */
  webhooks?: string[];
}

/** `chorus channels`: installed channel plugins, which are configured, and their live status. */
export async function channelsCommand(options: {
  config?: string;
  json?: boolean;
  url?: string;
  token?: string;
}): Promise<void> {
  const ctx = await cliContext(options);
  const { config } = ctx.loaded;
  const discovery = await discoverInstalledChannels(ctx);
  let running: RunningChannel[] | undefined;
  // A gateway that answers but refuses (a wrong token, …) is an error to show, not "not running".
  let refused: ChorusError | undefined;
  let gatewayUrl: string | undefined;
  try {
    const endpoint = await gatewayEndpoint(ctx, {
      ...(options.url ? { url: options.url } : {}),
      ...(options.token ? { token: options.token } : {}),
    });
    gatewayUrl = endpoint.url;
    running = (await callGateway<{ channels: RunningChannel[] }>(endpoint, "GET", "/v1/channels")).channels;
  } catch (error) {
    if (!isUnreachable(error)) refused = toChorusError(error);
  }
  const builtins = [webchatBuiltin()];
  const installed = new Set([...builtins, ...discovery.channels].map((c) => c.id));
  // Configured, but no plugin provides it: listed too, so it does not vanish from the list.
  const missing = Object.keys(config.channels)
    .filter((id) => !installed.has(id))
    .map((id) => ({ id, packageName: "(not installed)", version: "", source: "missing" }));
  const rows = [
    ...builtins.map((c) => ({ id: c.id, packageName: `${c.packageName} (built in)`, version: "", source: c.source })),
    ...discovery.channels.map((c) => ({ id: c.id, packageName: c.packageName, version: c.version, source: c.source })),
    ...missing,
  ].map((row) => ({
    ...row,
    // A built-in channel runs unless its block says `enabled: false`; any other when it is configured.
    configured: row.source === "builtin" ? config.channels[row.id]?.enabled !== false : row.id in config.channels,
    live: running?.filter((r) => r.id === row.id) ?? [],
  }));
  if (options.json) {
    const gateway = {
      gatewayRunning: running !== undefined || refused !== undefined,
      ...(refused ? { gatewayError: refused.toJSON() } : {}),
    };
    process.stdout.write(`${JSON.stringify({ channels: rows, problems: discovery.problems, ...gateway }, null, 2)}\n`);
    if (refused) process.exitCode = 1;
    return;
  }
  for (const row of rows) {
    const state = row.live
      .map(
        (l) =>
          `${l.account}: ${l.status.state}${l.status.detail ? ` (${l.status.detail})` : ""}` +
          (l.leased ? ` [held by ${l.holder ? l.holder : "no gateway yet"}]` : ""),
      )
      .join(", ");
    const flags = row.live[0] ? describeFlags(row.live[0].capabilities.reactions) : "";
    const configured = row.configured
      ? `configured${row.source === "missing" ? ` — ${missingPlugin(row.id)}` : ""}`
      : "not configured";
    process.stdout.write(
      `${row.id.padEnd(12)} ${`${row.packageName}${row.version ? `@${row.version}` : ""}`.padEnd(40)} ${configured}${state ? `  ${state}` : ""}${flags ? `  reactions: ${flags}` : ""}\n`,
    );
    // Only channels the platform calls have webhooks; those connecting out (WhatsApp, Discord) list none.
    const base = (config.gateway.publicUrl ?? gatewayUrl ?? "").replace(/\/$/, "");
    for (const path of new Set(row.live.flatMap((live) => live.webhooks ?? []))) {
      process.stdout.write(`${"".padEnd(13)}webhook ${base}${path}\n`);
    }
  }
  if (!running && !refused) {
    process.stdout.write("(the gateway is not running: start it with `chorus start` to see live status)\n");
  }
  for (const problem of discovery.problems) process.stdout.write(`problem: ${JSON.stringify(problem)}\n`);
  if (refused) reportError(refused);
}

/** What a configured channel without a plugin needs: the install command of a first-party one (no package name is made up). */
function missingPlugin(id: string): string {
  const install = installCommandFor(id);
  return install ? `its plugin is missing: ${install}` : "no installed plugin provides it";
}

function describeFlags(reactions: Record<string, unknown>): string {
  return Object.entries(reactions)
    .filter(([key, value]) => key !== "vocabulary" && value !== false)
    .map(([key, value]) => (value === true ? key : `${key}:${String(value)}`))
    .join(", ");
}
