import { anySignal } from "@chorus/channel-kit";
import type { Logger } from "@chorus/core";
import { LogLevel, type Logger as SlackLogger, type WebClientOptions } from "@slack/web-api";
import type { SlackConfig } from "./config.js";

/** What one running account hands the Slack clients. */
export interface WebClientHooks {
  /** The instance's lifetime: stopping aborts every request in flight. */
  signal: AbortSignal;
  /** Already redacted. */
  logger: Logger;
}

/**
 * Options for every `WebClient` of an account (the bot's, and the one Socket Mode opens
 * connections with): Slack's own retry policy off (`retries: 0`, and 429s rejected instead of
 * waited out) so the kit's bounded retries apply once, our timeout, and requests that end when
 * the instance stops.
 */
export function webClientOptions(config: SlackConfig, hooks: WebClientHooks): WebClientOptions {
  return {
    slackApiUrl: config.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: config.timeoutMs,
    // Redirects and proxies are the library's business; stopping is ours.
    fetch: (url, init) =>
      fetch(url, { ...init, signal: init?.signal ? anySignal([init.signal, hooks.signal]) : hooks.signal }),
    logger: slackLogger(hooks.logger),
  };
}

/**
 * The libraries' own log lines, at debug level: what matters (a failed call, a lost connection)
 * the channel reports itself, once, with a reason. Their debug lines (payloads) are dropped.
 */
export function slackLogger(logger: Logger): SlackLogger {
  const quiet = () => {};
  const debug = (...parts: unknown[]) => logger.debug(`slack sdk: ${parts.map(String).join(" ")}`);
  return {
    debug: quiet,
    info: quiet,
    warn: debug,
    error: debug,
    setLevel: quiet,
    getLevel: () => LogLevel.INFO,
    setName: quiet,
  };
}
