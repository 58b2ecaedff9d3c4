#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as commander from "commander";
import { GATEWAY_PACKAGE_DIR } from "../support/index.js";
import { registerConfigCommands } from "./config.js";
import { registerMessageCommands } from "./message.js";
import { reportError } from "./output.js";
import { registerPairingCommands } from "./pairing.js";
import { registerPluginCommands } from "./plugins.js";
import { registerSessionsCommands } from "./sessions.js";
import { registerTokenCommand } from "./token.js";

const { version } = JSON.parse(readFileSync(join(GATEWAY_PACKAGE_DIR, "package.json"), "utf8")) as {
  version: string;
};

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new commander.InvalidArgumentError("expected a port number 0-65535");
  return port;
}

const program = new commander.Command()
  .name("chorus")
  .description("One AI agent in the chat apps people already use.")
  .version(version, "-v, --version", "print the version")
  .showHelpAfterError();

program
  .command("start")
  .description("start the gateway (with no config: webchat + the offline demo agent)")
  .option("--config <path>", "config file (default: $CHORUS_CONFIG or <home>/chorus.json)")
  .option("--verbose", "debug logging (inbound messages, routing)")
  .option("--port <port>", "listen on this port (overrides gateway.port; 0 picks a free one)", parsePort)
  .option("--bind <address>", "listen on this address (overrides gateway.bind)")
  // Loaded on use: the gateway runtime (agent SDK, HTTP server, webchat) doubles every other command's start-up time.
  .action(async (options: Parameters<typeof import("./start.js").startCommand>[0]) => {
    const { startCommand } = await import("./start.js");
    await startCommand(options);
  });

program
  .command("mcp")
  .description(
    "the MCP server over stdio (for Claude Desktop, Claude Code, any MCP client): the running gateway's tools, or a gateway it starts",
  )
  .option("--config <path>", "config file")
  .option("--url <url>", "URL of the running gateway (default: from the config)")
  .option("--token <token>", "API token (default: CHORUS_TOKEN, gateway.auth.token or the generated one)")
  .option("--no-start", "fail instead of starting a gateway when none answers")
  .action(async (options: Parameters<typeof import("./mcp.js").mcpCommand>[0]) => {
    const { mcpCommand } = await import("./mcp.js");
    await mcpCommand(options, version);
  });

program
  .command("channels")
  .description("list installed channel plugins, their capabilities and status")
  .option("--config <path>", "config file")
  .option("--json", "machine-readable output")
  .option("--url <url>", "URL of the running gateway (default: from the config)")
  .option("--token <token>", "API token (default: CHORUS_TOKEN, gateway.auth.token or the generated one)")
  .action(async (options: Parameters<typeof import("./channels.js").channelsCommand>[0]) => {
    const { channelsCommand } = await import("./channels.js");
    await channelsCommand(options);
  })
  .command("login <channel>")
  .description("link an account of a channel that logs in as a device (a QR code or a pairing code)")
  .option("--account <name>", "the account under channels.<id>.accounts (default: default)")
  .option("--config <path>", "config file")
  .option("--verbose", "debug logging (to stderr)")
  // The channel declares its own options (WhatsApp: --phone); they are checked once it is loaded.
  .allowUnknownOption()
  .argument("[channel-options...]", "options the channel's login takes (an unknown one lists them)")
  .addHelpText(
    "after",
    "\nExamples:\n  chorus channels login whatsapp\n  chorus channels login whatsapp --account work --phone 4915123456789",
  )
  .action(async (channel: string, pluginWords: string[], _options: unknown, command: commander.Command) => {
    const { loginCommand } = await import("./login.js");
    try {
      await loginCommand(channel, command.optsWithGlobals(), {}, pluginWords);
    } catch (error) {
      reportError(error);
    }
    // The platform client may still hold timers of queries it sent before the login closed it
    // (Baileys: up to a minute); the login is over either way.
    process.exit(process.exitCode ?? 0);
  });

registerPluginCommands(program);
registerConfigCommands(program);
registerPairingCommands(program);
registerSessionsCommands(program);
registerMessageCommands(program);
registerTokenCommand(program);

program
  .command("trace <channel> <message-id>")
  .description(
    "what became of one inbound message: received (when, from whom, where), the decision and why, the turn, the reply and its delivery (from the state database)",
  )
  .option("--config <path>", "config file (default: $CHORUS_CONFIG or <home>/chorus.json)")
  .option("--account <name>", "only this account of the channel")
  .option("--json", "machine-readable output")
  .addHelpText(
    "after",
    "\nThe message id is the platform's (the `messageId` of /v1/events and recent_messages), or the event's id.\nExample:\n  chorus trace telegram 4711",
  )
  .action(async (channel: string, id: string, options: { config?: string; account?: string; json?: boolean }) => {
    const { traceCommand } = await import("./trace.js");
    await traceCommand(channel, id, options);
  });

program
  .command("doctor")
  .description(
    "check what cannot work and how to fix it: the config, each agent's model, each channel's platform and credentials, webhook URLs",
  )
  .option("--config <path>", "config file")
  .option("--url <url>", "URL of the running gateway (default: from the config)")
  .option("--token <token>", "API token (default: CHORUS_TOKEN, gateway.auth.token or the generated one)")
  .action(async (options: Parameters<typeof import("./doctor.js").doctorCommand>[0]) => {
    const { doctorCommand } = await import("./doctor.js");
    await doctorCommand(options);
  });

program.parseAsync(process.argv).catch(reportError);
