import type { Command } from "commander";
import { cliContext, gatewayEndpoint } from "./context.js";

/**
 * `chorus token`: the API token (and with `--webchat` the webchat link carrying it), on request
 * only: `chorus start` prints it once, when it generates it, so it never lands in service logs.
 */
export function registerTokenCommand(program: Command): void {
  program
    .command("token")
    .description("print the gateway's API token (or, with --webchat, the webchat link with it)")
    .option("--config <path>", "config file")
    .option("--webchat", "print the webchat URL with the token instead")
    .action(async (options: { config?: string; webchat?: boolean }) => {
      const ctx = await cliContext(options);
      const { url, token } = await gatewayEndpoint(ctx, {});
      if (!token) {
        process.stderr.write(
          `error: no token yet: set gateway.auth.token, or start the gateway once to generate ${ctx.paths.tokenFile}\n`,
        );
        process.exitCode = 1;
        return;
      }
      const base = ctx.loaded.config.gateway.publicUrl?.replace(/\/$/, "") ?? url;
      process.stdout.write(`${options.webchat ? `${base}/?token=${encodeURIComponent(token)}` : token}\n`);
    });
}
