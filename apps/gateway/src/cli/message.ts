import type { Command } from "commander";
import { cliContext, gatewayEndpoint } from "./context.js";
import { callGateway } from "./http-client.js";

interface RoutingOptions {
  channel: string;
  account?: string;
  target: string;
  url?: string;
  token?: string;
  config?: string;
}

function routing(command: Command): Command {
  return command
    .requiredOption("--channel <id>", "channel id (telegram, webchat, …)")
    .requiredOption("--target <conversation>", "conversation id")
    .option("--account <name>", "channel account (default: the only one)")
    .option("--url <url>", "gateway URL (default: from the config)")
    .option("--token <token>", "API token (default: CHORUS_TOKEN, gateway.auth.token or the generated one)")
    .option("--config <path>", "config file");
}

async function call(options: RoutingOptions, body: Record<string, unknown>): Promise<void> {
  const ctx = await cliContext(options);
  const endpoint = await gatewayEndpoint(ctx, options);
  const { result } = await callGateway<{ result: unknown }>(endpoint, "POST", "/v1/tools/message", {
    channel: options.channel,
    target: options.target,
    ...(options.account ? { account: options.account } : {}),
    ...body,
  });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

/** `chorus message react|send|reactions`: the `message` tool through the running gateway. */
export function registerMessageCommands(program: Command): void {
  const message = program.command("message").description("use the message tool through the running gateway");
  routing(message.command("react").description("add, remove or clear the bot's reaction on a message"))
    .requiredOption("--message-id <id>", "the message to react to")
    .option("--emoji <emoji>", 'unicode, shortcode or platform name ("" clears where allowed)')
    .option("--remove", "remove this emoji")
    .option("--clear-all", "remove every reaction of the bot")
    .action((options: RoutingOptions & { messageId: string; emoji?: string; remove?: boolean; clearAll?: boolean }) =>
      call(options, {
        action: "react",
        messageId: options.messageId,
        ...(options.emoji !== undefined ? { emoji: options.emoji } : {}),
        ...(options.remove ? { remove: true } : {}),
        ...(options.clearAll ? { clearAll: true } : {}),
      }),
    );
  routing(message.command("send").description("send a text message"))
    .requiredOption("--text <text>", "what to send")
    .option("--reply-to <id>", "message to reply to")
    .action((options: RoutingOptions & { text: string; replyTo?: string }) =>
      call(options, { action: "send", text: options.text, ...(options.replyTo ? { replyTo: options.replyTo } : {}) }),
    );
  routing(message.command("reactions").description("list the reactions on a message"))
    .requiredOption("--message-id <id>", "the message")
    .action((options: RoutingOptions & { messageId: string }) =>
      call(options, { action: "reactions", messageId: options.messageId }),
    );
}
