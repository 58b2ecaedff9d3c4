import { containChannelErrors } from "../channels/index.js";
import { validateInstallation, validationError } from "../checks/index.js";
import { startGateway } from "../runtime/index.js";
import { createLogger } from "../support/index.js";
import { cliContext, cliPaths } from "./context.js";
import { progress } from "./output.js";

/** `chorus start`: runs the gateway until SIGINT/SIGTERM. */
export async function startCommand(options: {
  config?: string;
  verbose?: boolean;
  port?: number;
  bind?: string;
}): Promise<void> {
  // The same validation as `chorus config check`: every problem at once, or none.
  const error = validationError(await validateInstallation(cliPaths(options)));
  if (error) throw error;
  const ctx = await cliContext(options);
  if (options.port !== undefined) ctx.loaded.config.gateway.port = options.port;
  if (options.bind !== undefined) ctx.loaded.config.gateway.bind = options.bind;
  const logger = createLogger({ verbose: options.verbose === true });
  // A channel's stray rejection or timer exception restarts that channel; the gateway's own ends it.
  containChannelErrors((error, how) => {
    logger.fatal({ err: error, how }, "the gateway failed; exiting");
    process.exit(1);
  });
  if (!ctx.loaded.exists)
    progress(`No config at ${ctx.loaded.file}: starting the webchat with the offline demo agent.`);
  const gateway = await startGateway({ paths: ctx.paths, loaded: ctx.loaded, logger });
  const webchat = gateway.registry.all().some((e) => e.builtin);
  // The token is printed once, when it is generated; after that `chorus token` shows it on request,
  // so a service's log never holds it.
  const lines = [
    `Chorus gateway listening on ${gateway.url}`,
    gateway.tokenGenerated
      ? `API token: ${gateway.token} (generated, kept in ${ctx.paths.tokenFile}; \`chorus token\` shows it again)`
      : undefined,
    webchat
      ? gateway.tokenGenerated
        ? `Webchat: ${gateway.url}/?token=${gateway.token}`
        : `Webchat: ${gateway.url}/ (open the link \`chorus token --webchat\` prints)`
      : undefined,
  ];
  process.stdout.write(`${lines.filter((line) => line !== undefined).join("\n")}\n`);
  let signals = 0;
  const shutdown = (signal: string) => {
    signals++;
    if (signals > 1) {
      progress(`${signal} again: exiting now.`);
      process.exit(130);
    }
    progress(`${signal}: finishing in-flight turns and stopping channels…`);
    void gateway.close().then(() => {
      progress("Stopped.");
      process.exit(0);
    });
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}
