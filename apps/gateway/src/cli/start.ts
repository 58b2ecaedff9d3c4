import type { Redactor } from "@chorus/channel-kit";
import { isChorusError } from "@chorus/core";
import { containChannelErrors } from "../channels/index.js";
import { validateInstallation, validationError } from "../checks/index.js";
import { gatewaySecrets } from "../config/index.js";
import { collectYoungGenerationWhenFull, startGateway } from "../runtime/index.js";
import { createLogger } from "../support/index.js";
import { cliContext, cliPaths } from "./context.js";
import { progress } from "./output.js";
import { installationRedactor } from "./redaction.js";

/** `chorus start`: runs the gateway until SIGINT/SIGTERM. */
export async function startCommand(options: {
  config?: string;
  verbose?: boolean;
  port?: number;
  bind?: string;
}): Promise<void> {
  // The same validation as `chorus config check`: every problem at once, or none.
  const located = cliPaths(options);
  const validation = await validateInstallation(located);
  // Every secret value of the config, the environment and the channels' accounts: none shows in the
  // log or in an error printed here, whatever spelling it comes in.
  const redactor = installationRedactor(validation, located.env);
  const error = validationError(validation);
  if (error) throw redacted(redactor, error);
  const ctx = await cliContext(options);
  redactor.add(...gatewaySecrets(ctx.loaded.config, ctx.env));
  if (options.port !== undefined) ctx.loaded.config.gateway.port = options.port;
  if (options.bind !== undefined) ctx.loaded.config.gateway.bind = options.bind;
  const logger = createLogger({ verbose: options.verbose === true, redactor });
  // A channel's stray rejection or timer exception restarts that channel; the gateway's own ends it.
  containChannelErrors((error, how) => {
    logger.fatal({ err: error, how }, "the gateway failed; exiting");
    process.exit(1);
  });
  if (!ctx.loaded.exists)
    progress(`No config at ${ctx.loaded.file}: starting the webchat with the offline demo agent.`);
  const gateway = await startGateway({ paths: ctx.paths, loaded: ctx.loaded, logger, redactor }).catch(
    (failure: unknown) => {
      throw redacted(redactor, failure);
    },
  );
  // The API token, generated or read from its file: a secret from now on too.
  redactor.add(gateway.token);
  collectYoungGenerationWhenFull();
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

/** The error as the command line prints it, without a secret: a typed one keeps its class, code and hint. */
function redacted(redactor: Redactor, error: unknown): Error {
  if (isChorusError(error)) return redactor.error(error);
  return new Error(redactor.text(error instanceof Error ? error.message : String(error)));
}
