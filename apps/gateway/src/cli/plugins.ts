import type { Command } from "commander";
import { ensurePrivateHome } from "../runtime/index.js";
import { GATEWAY_PACKAGE_DIR } from "../support/index.js";
import { cliContext } from "./context.js";
import { progress } from "./output.js";

// The install code (npm, tarballs) is loaded by these commands only, not by every `chorus` run.
const install = () => import("../plugins/install.js");

/** `chorus plugins add|remove|list`: third-party and first-party channel packages in `<home>/plugins`. */
export function registerPluginCommands(program: Command): void {
  const plugins = program.command("plugins").description("install and remove channel plugins in <home>/plugins");
  plugins
    .command("add <spec>")
    .description(
      "install a channel: a first-party id (telegram: from this clone), a package name, a tarball or a path; no install scripts run",
    )
    .action(async (spec: string) => {
      const ctx = await cliContext({});
      ensurePrivateHome(ctx.paths.home, { warn: (_fields, message) => progress(`warning: ${message}`) });
      progress(`Installing ${spec} into ${ctx.paths.plugins} …`);
      const { installPlugin } = await install();
      const channels = await installPlugin(spec, ctx.paths.plugins, {
        onProgress: (line) => progress(`  npm: ${line}`),
        onNotice: (line) => progress(line),
        gatewayDir: GATEWAY_PACKAGE_DIR,
      });
      for (const channel of channels) {
        progress(
          `Installed channel "${channel.id}" (${channel.packageName}@${channel.version}). Configure it under channels.${channel.id}.`,
        );
      }
    });
  plugins
    .command("remove <name>")
    .description("uninstall a plugin by package name or channel id")
    .action(async (name: string) => {
      const ctx = await cliContext({});
      progress(`Removing ${name} …`);
      const { removePlugin } = await install();
      await removePlugin(name, ctx.paths.plugins, { onProgress: (line) => progress(`  npm: ${line}`) });
      progress(`Removed ${name}.`);
    });
  plugins
    .command("list")
    .description("list the plugins installed in <home>/plugins")
    .action(async () => {
      const ctx = await cliContext({});
      const { listInstalled } = await install();
      const installed = await listInstalled(ctx.paths.plugins);
      if (installed.length === 0) process.stdout.write(`No plugins installed in ${ctx.paths.plugins}.\n`);
      for (const channel of installed)
        process.stdout.write(`${channel.id.padEnd(12)} ${channel.packageName}@${channel.version}\n`);
    });
}
