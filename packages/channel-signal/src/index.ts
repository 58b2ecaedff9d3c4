/**
 * Signal, through a signal-cli daemon. Read this file first: the plugin object the gateway imports
 * and the wiring of one running account. Then one idea per file: `config.ts` → `client.ts` (+
 * `errors.ts`) → `wire.ts` → `events.ts` (the event stream) → `inbound.ts` (+ `mentions.ts`,
 * `directory.ts`) → `outbound.ts` (+ `markdown.ts`) → `reactions.ts` → `daemon.ts` (autoStart) →
 * `login.ts` (linking), and the fake daemon every test runs against, in `testing/`.
 */
import { BotReactionRecord, Reconnect, Redactor, secretsOf } from "@chorus/channel-kit";
import {
  CHORUS_API_VERSION,
  type ChannelCapabilities,
  type ChannelContext,
  type ChannelInstance,
  type ChannelStatus,
  ChorusError,
  defineChannel,
  type RefScope,
} from "@chorus/core";
import { authHeaders, SignalRpc } from "./client.js";
import { SIGNAL_SECRET_KEYS, type SignalConfig, signalConfigSchema } from "./config.js";
import { SignalDaemon } from "./daemon.js";
import { Directory } from "./directory.js";
import { EVENTS_PATH, EventStream } from "./events.js";
import { createInbound } from "./inbound-handler.js";
import { LOGIN_OPTIONS, linkDevice } from "./login.js";
import { createOutbound, MAX_TEXT_LENGTH } from "./outbound.js";
import { probeSignal } from "./probe.js";
import { createReactions } from "./reactions.js";
import { botIdOf, type SignalBot } from "./refs.js";
import type { SignalContact } from "./wire.js";

/** What Signal can do, as data: the agent's tool schema, core's rules and the contract suite read it. */
export const signalCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"],
  reactions: {
    clearAll: false, // Signal has no clear-all: removing names the one emoji the bot holds
    singleSlot: true, // one reaction per person per message; a new one replaces it
    tapbackOnly: false,
    addOnly: false,
    list: false, // signal-cli cannot say who reacted
  },
  typing: true,
  inboundReactions: true,
  replies: true,
  threads: false,
  maxTextLength: MAX_TEXT_LENGTH,
};

/** The Signal channel plugin; the package's default export. */
export const signalChannel = defineChannel<SignalConfig>({
  id: "signal",
  apiVersion: CHORUS_API_VERSION,
  label: "Signal",
  capabilities: signalCapabilities,
  configSchema: signalConfigSchema,
  secretKeys: SIGNAL_SECRET_KEYS,
  loginOptions: LOGIN_OPTIONS,
  create: (ctx) => createSignalInstance(ctx),
  probe: (ctx) => probeSignal(ctx),
  login: (ctx) => linkDevice(ctx),
});

export default signalChannel;

function createSignalInstance(ctx: ChannelContext<SignalConfig>): ChannelInstance {
  const { config } = ctx;
  // Every log line, error and status detail of this account passes the redactor first.
  const redactor = new Redactor(secretsOf(config, SIGNAL_SECRET_KEYS));
  const logger = redactor.logger(ctx.logger);
  let bot: SignalBot | undefined;
  let status: ChannelStatus = { state: "stopped" };
  /** Why the daemon cannot be used right now: its process, the event stream, or the last call. */
  const problems: { daemon?: string; stream?: string; call?: string } = {};
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
  const directory = new Directory(rpc, logger);
  const running = () => {
    if (!bot || status.state !== "running") throw new ChorusError("E_DISABLED", "Signal is not started");
    const scope: RefScope = { channel: "signal", accountId: ctx.accountId, botId: botIdOf(bot) };
    return { scope, bot };
  };
  const inbound = createInbound({
    config,
    logger,
    directory,
    running: () => (bot ? running() : undefined),
    emit: ctx.emit,
  });

  return {
    async start() {
      status = { state: "starting" };
      run = new AbortController();
      const lifetime = AbortSignal.any([ctx.signal, run.signal]);
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
          onReceive: inbound,
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
    ...createOutbound(rpc, running, logger),
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

export type { SignalConfig } from "./config.js";
export { daemonArgs } from "./daemon.js";
