import { Redactor } from "@chorus/channel-kit";
import type { Logger } from "pino";
import { gatewaySecrets } from "../config/index.js";
import { serveStdio } from "../mcp/index.js";
import { createLogger } from "../support/index.js";
import { cliContext, gatewayEndpoint } from "./context.js";

/** `chorus mcp`: the gateway's MCP server over stdio, for MCP clients that start a command. */
export async function mcpCommand(
  options: { config?: string; url?: string; token?: string; start?: boolean },
  version: string,
): Promise<void> {
  const ctx = await cliContext(options);
  let endpoint = await gatewayEndpoint(ctx, options);
  let stop: (() => Promise<void>) | undefined;
  if (!(await answers(endpoint.url))) {
    if (options.start === false) {
      throw new Error(`no gateway answers at ${endpoint.url}; start one with \`chorus start\` (or drop --no-start)`);
    }
    // No gateway runs: this process runs one, logging to stderr (stdout carries the protocol).
    // As `chorus start`: no secret value in a log line, whatever its spelling.
    const redactor = new Redactor(gatewaySecrets(ctx.loaded.config, ctx.env));
    const destination = (await import("pino")).pino.destination(2);
    const logger: Logger = createLogger({ destination, format: "json", redactor });
    const { startGateway, collectYoungGenerationWhenFull } = await import("../runtime/index.js");
    const { containChannelErrors } = await import("../channels/containment.js");
    // As `chorus start`: a channel's stray rejection restarts that channel; the gateway's own ends it.
    containChannelErrors((error, how) => {
      logger.fatal({ err: error, how }, "the gateway failed; exiting");
      process.exit(1);
    });
    const gateway = await startGateway({ paths: ctx.paths, loaded: ctx.loaded, logger, redactor });
    redactor.add(gateway.token);
    collectYoungGenerationWhenFull();
    endpoint = { url: gateway.url, token: gateway.token };
    stop = () => gateway.close();
    process.stderr.write(`chorus mcp: started a gateway on ${gateway.url}\n`);
  }
  await serveStdio(endpoint, version);
  await stop?.();
  process.exit(0);
}

/** Whether a gateway answers `/healthz` at `url` within 2 s. */
async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}
