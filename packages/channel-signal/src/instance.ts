import { anySignal, BotReactionRecord, Reconnect, Redactor, secretsOf } from "@chorus/channel-kit";
import {
  type ChannelContext,
  type ChannelInstance,
  type ChannelStatus,
  ChorusError,
  type RefScope,
} from "@chorus/core";
import { authHeaders, SignalRpc } from "./client.js";
import { SIGNAL_SECRET_KEYS, type SignalConfig } from "./config.js";
import { SignalDaemon } from "./daemon.js";
import { Directory } from "./directory.js";
import { createDownload } from "./download.js";
import { EVENTS_PATH, EventStream } from "./events.js";
import { createOutbound } from "./outbound.js";
import { createReactions } from "./reactions.js";
import { createSignalReceive } from "./receive.js";
import { botIdOf, type SignalBot } from "./refs.js";
import { StreamedRpc } from "./streamed-rpc.js";
import type { SignalContact } from "./wire.js";

/** One running Signal account: wires the daemon, its event stream and receiver, outbound, downloads and reactions. */
export function createSignalInstance(ctx: ChannelContext<SignalConfig>): ChannelInstance {
  const { config } = ctx;
  // Every log line, error and status detail of this account passes the redactor first.
  const redactor = new Redactor(secretsOf(config, SIGNAL_SECRET_KEYS));
  const logger = redactor.logger(ctx.logger);
  let bot: SignalBot | undefined;
  let status: ChannelStatus = { state: "stopped" };
  /** Why the daemon cannot be used right now: its process, the event stream, or the last call. */
  const problems: { daemon?: string | undefined; stream?: string | undefined; call?: string | undefined } = {};
  let run: AbortController | undefined;
  let stream: EventStream | undefined;
  let daemon: SignalDaemon | undefined;
  const rpc = new SignalRpc(config, {
    signal: ctx.signal,
    redactor,
    onReachability: (reachable, error) => {
      problems.call = reachable ? undefined : error?.message;
    },
  });
  // Calls too large to hold whole (a send with media, a download) go out streamed, on the same wire.
  const streamed = new StreamedRpc(rpc, {
    signal: ctx.signal,
    redactor,
    onReachability: (reachable, error) => {
      problems.call = reachable ? undefined : error?.message;
    },
  });
  const directory = new Directory(rpc, logger);
  const running = () => {
    if (!bot || status.state !== "running") throw new ChorusError("E_DISABLED", "Signal is not started");
    const scope: RefScope = { channel: "signal", accountId: ctx.accountId, botId: botIdOf(bot) };
    return { scope, bot };
  };
  // The one glue from the event stream to ctx.emit (receive.ts): kept and emitted again until committed.
  const receive = createSignalReceive({
    config,
    logger,
    directory,
    running: () => (bot ? running() : undefined),
    emit: (event) => ctx.emit(event),
    signal: ctx.signal,
  });

  return {
    async start() {
      status = { state: "starting" };
      run = new AbortController();
      const lifetime = anySignal([ctx.signal, run.signal]);
      try {
        if (config.autoStart) {
          daemon = new SignalDaemon({ config, logger, signal: lifetime, onState: (p) => (problems.daemon = p) });
          await daemon.start();
        }
        bot = await whoAmI(rpc, config.account);
        status = { state: "running" };
        const url = new URL(EVENTS_PATH, config.httpUrl);
        url.searchParams.set("account", config.account);
        stream = new EventStream({
          url,
          headers: authHeaders(config),
          connectTimeoutMs: config.timeoutMs,
          idleTimeoutMs: config.idleTimeoutMs,
          reconnect: new Reconnect({ initialMs: config.reconnectMinMs, maxMs: config.reconnectMaxMs, jitter: 0.5 }),
          signal: lifetime,
          logger,
          onReceive: receive,
          onState: (up, problem) => {
            problems.stream = up ? undefined : redactor.text(problem ?? "the event stream is down");
            if (up) logger.debug("signal: event stream connected");
          },
        });
        await stream.start();
      } catch (error) {
        const reason = redactor.error(error);
        status = { state: "degraded", detail: reason.message };
        run.abort();
        await daemon?.stop();
        throw reason;
      }
      logger.info(`signal: linked as ${config.account}${bot.name ? ` (${bot.name})` : ""}`);
    },
    async stop() {
      run?.abort();
      await stream?.stopped();
      await daemon?.stop();
      status = { state: "stopped" };
    },
    ...createOutbound(streamed, running, logger),
    // Attachments come from the daemon's getAttachment / getSticker, decoded as they stream in.
    ...createDownload(streamed),
    // Signal has no list and needs the held emoji to take a reaction back: the bot keeps its record.
    ...createReactions(rpc, new BotReactionRecord(ctx.store)),
    status() {
      if (status.state !== "running" || !bot) return redactor.status(status);
      const problem = problems.daemon ?? problems.stream ?? problems.call;
      if (problem) return redactor.status({ state: "degraded", detail: problem });
      const name = bot.name ? ` (${bot.name})` : "";
      const pid = daemon?.pid ? `; signal-cli pid ${daemon.pid}` : "";
      return redactor.status({
        state: "running",
        detail: `linked as ${bot.number}${name}; events from ${config.httpUrl}${pid}`,
      });
    },
    identity: () =>
      bot ? { id: botIdOf(bot), e164: bot.number, isBot: true, ...(bot.name ? { name: bot.name } : {}) } : undefined,
  };
}

/** The account's own uuid and profile name, from its own entry in `listContacts`; proves the daemon knows it. */
async function whoAmI(rpc: SignalRpc, account: string): Promise<SignalBot> {
  const entries = await rpc.call<SignalContact[]>(
    "listContacts",
    { recipient: [account], allRecipients: true },
    { idempotent: true, operation: "look up the account" },
  );
  const self = entries.find((entry) => entry.number === account);
  const profile = [self?.profile?.givenName, self?.profile?.familyName].filter(Boolean).join(" ");
  const name = profile || self?.name || undefined;
  return { number: account, ...(self?.uuid ? { uuid: self.uuid } : {}), ...(name ? { name } : {}) };
}
