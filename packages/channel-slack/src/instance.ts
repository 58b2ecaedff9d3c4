import { Redactor, secretsOf } from "@chorus/channel-kit";
import {
  type ChannelContext,
  type ChannelInstance,
  type ChannelStatus,
  ChorusError,
  type RefScope,
  toChorusError,
} from "@chorus/core";
import { WebClient } from "@slack/web-api";
import { SlackApi } from "./api.js";
import { SLACK_SECRET_KEYS, type SlackConfig } from "./config.js";
import { Directory } from "./directory.js";
import { createDownload } from "./download.js";
import { type BotIdentity, normalizePayload } from "./inbound.js";
import { createOutbound } from "./outbound.js";
import { createReactions } from "./reactions.js";
import { createReceive } from "./receive.js";
import { SocketTransport } from "./socket.js";
import { webClientOptions } from "./web.js";
import { createEventsHandler } from "./webhook.js";

/** Who the bot is once started: `auth.test`'s answer. */
interface Connected extends BotIdentity {
  readonly name: string;
  readonly team: string;
}

/** One running Slack workspace (account): wires the clients, the transport and its receiver, outbound and reactions. */
export function createSlackInstance(ctx: ChannelContext<SlackConfig>): ChannelInstance {
  const { config } = ctx;
  // Every log line, error and status detail of this account passes the redactor first.
  const redactor = new Redactor(secretsOf(config, SLACK_SECRET_KEYS));
  const logger = redactor.logger(ctx.logger);
  const hooks = { signal: ctx.signal, logger };
  /** Why the last Web API call failed, while it keeps failing. */
  let problem: string | undefined;
  const api = new SlackApi(new WebClient(config.botToken, webClientOptions(config, hooks)), config, {
    signal: ctx.signal,
    redactor,
    onProblem: (p) => {
      problem = p;
    },
  });
  const directory = new Directory(api, config.lookupTtlMs, logger);
  const download = createDownload(api, config, ctx.signal);
  let bot: Connected | undefined;
  let status: ChannelStatus = { state: "stopped" };
  const scope = (): RefScope => {
    if (!bot) throw new ChorusError("E_DISABLED", "Slack is not started");
    return { channel: "slack", accountId: ctx.accountId, botId: bot.userId };
  };
  // Both transports hand every body to one receiver; it decides whether Slack is acknowledged.
  // A Slack Connect file arrives as a stub; files.info completes it (a failed lookup keeps the stub).
  const lookupFile = async (file: string) => (await api.call("files.info", (web) => web.files.info({ file }))).file;
  const receive = createReceive({
    normalize: (payload) => normalizePayload(payload, scope(), bot as Connected, directory, lookupFile),
    emit: (event) => ctx.emit(event),
    logger,
    signal: ctx.signal,
  });

  const eventsPath = `/${ctx.accountId}/events`;
  const { appToken, signingSecret } = config;
  const socket =
    config.mode === "socket" && appToken
      ? new SocketTransport({ config: { ...config, appToken }, hooks, receive, redactor, logger })
      : undefined;
  // HTTP mode: Slack's Request URL, registered at create (the gateway serves it under /hooks/slack/).
  if (config.mode === "http" && signingSecret) {
    const running = () => status.state === "running" && bot !== undefined;
    ctx.http.route("POST", eventsPath, createEventsHandler({ signingSecret, running, receive, logger }));
  }

  return {
    async start() {
      status = { state: "starting" };
      try {
        // Proves the bot token and tells who the bot is (its own messages and reactions are dropped).
        const me = await api.call("auth.test", (web) => web.auth.test());
        if (!me.user_id) throw new ChorusError("E_PLATFORM", "Slack's auth.test answer has no user_id");
        bot = {
          userId: me.user_id,
          name: me.user ?? me.user_id,
          team: me.team ?? "",
          ...(me.bot_id ? { botId: me.bot_id } : {}),
        };
        await socket?.start();
      } catch (error) {
        const reason = redactor.error(error);
        status = { state: "degraded", detail: reason.message };
        throw reason;
      }
      const where = socket ? "Socket Mode" : `Events API at ${ctx.http.url(eventsPath)}`;
      status = { state: "running", detail: `connected as @${bot.name}${bot.team ? ` in ${bot.team}` : ""}; ${where}` };
      if (!socket)
        logger.info(
          { requestUrl: ctx.http.url(eventsPath) },
          `slack: Request URL for Event Subscriptions: ${ctx.http.url(eventsPath)}`,
        );
    },
    async stop() {
      status = { state: "stopped" };
      await socket?.stop();
    },
    ...createOutbound(api, scope, {
      replyInThread: config.replyInThread,
      files: { config, signal: ctx.signal, redactor, logger, shareTimeoutMs: config.shareTimeoutMs },
    }),
    // What a download throws passes the redactor too (it names no URL, but a platform's words might carry a token).
    download: (attachment, options) =>
      download(attachment, options).catch((error: unknown) => {
        throw redactor.error(toChorusError(error));
      }),
    ...createReactions(api, () => scope().botId),
    status() {
      const down = status.state === "running" ? (socket?.problem ?? problem) : undefined;
      return redactor.status(down ? { state: "degraded", detail: down } : status);
    },
    identity: () => (bot ? { id: bot.userId, name: bot.name, isBot: true } : undefined),
  };
}
