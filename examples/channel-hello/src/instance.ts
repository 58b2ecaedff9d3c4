import { codeForStatus, HttpClient, PlatformHttpError, Redactor, secretsOf } from "@chorus/channel-kit";
import {
  type ChannelContext,
  type ChannelInstance,
  type ChannelStatus,
  ChorusError,
  type RefScope,
} from "@chorus/core";
import { HELLO_SECRET_KEYS, type HelloConfig } from "./config.js";
import type { HelloUser } from "./inbound.js";
import { createOutbound } from "./outbound.js";
import { createReactions } from "./reactions.js";
import { createPoller } from "./receive.js";

/** One running account: wires the client, the event poll and its receiver, outbound and reactions. */
export function createHelloInstance(ctx: ChannelContext<HelloConfig>): ChannelInstance {
  const { config } = ctx;
  // Every log line, error and status passes the redactor: the token never leaves the plugin.
  const redactor = new Redactor(secretsOf(config, HELLO_SECRET_KEYS));
  const logger = redactor.logger(ctx.logger);
  const client = new HttpClient({
    label: "hello platform",
    baseUrl: config.baseUrl,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    maxRetryAfterMs: config.maxRetryAfterMs,
    signal: ctx.signal,
    redactor,
    headers: { authorization: `Bearer ${config.token}` },
    // The platform names each refusal (`{ "error": "already_reacted" }`): keep the name.
    refusal: ({ json, status, operation }) => {
      const error = (json as { error?: unknown } | undefined)?.error;
      if (typeof error !== "string" || status === 429) return undefined;
      const message = `hello platform refused to ${operation} (HTTP ${status} ${error})`;
      return new PlatformHttpError(codeForStatus(status), message, status, error);
    },
  });
  let bot: HelloUser | undefined;
  let status: ChannelStatus = { state: "stopped" };
  const scope = (): RefScope => {
    if (!bot) throw new ChorusError("E_DISABLED", "Hello is not started");
    return { channel: "hello", accountId: ctx.accountId, botId: bot.id };
  };
  const poller = createPoller(ctx, client, scope, logger);

  return {
    async start() {
      status = { state: "starting" };
      try {
        bot = await client.request<HelloUser>({ method: "GET", path: "/v1/me", operation: "read the bot's account" });
        await poller.start();
      } catch (error) {
        const reason = redactor.error(error);
        status = { state: "degraded", detail: reason.message };
        throw reason;
      }
      status = { state: "running", detail: `connected as ${bot.name}` };
    },
    async stop() {
      await poller.stop();
      status = { state: "stopped" };
    },
    ...createOutbound(client, scope),
    ...createReactions(client, () => scope().botId),
    status: () => {
      const problem = status.state === "running" ? poller.problem() : undefined;
      return redactor.status(problem ? { state: "degraded", detail: problem } : status);
    },
    identity: () => (bot ? { id: bot.id, name: bot.name, isBot: true } : undefined),
  };
}
