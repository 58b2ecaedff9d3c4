import { Reconnect, type Redactor, withTimeout } from "@chorus/channel-kit";
import { ChorusError, isChorusError, type Logger } from "@chorus/core";
import { SocketModeClient } from "@slack/socket-mode";
import type { SlackConfig } from "./config.js";
import { slackError } from "./errors.js";
import type { Receive } from "./receive.js";
import { slackLogger, type WebClientHooks, webClientOptions } from "./web.js";

/** How long `stop()` waits for the closing handshake before it lets the socket go. */
const STOP_WITHIN_MS = 2_000;

/** What the Socket Mode transport needs from its account. */
export interface SocketOptions {
  config: SlackConfig & { appToken: string };
  hooks: WebClientHooks;
  receive: Receive;
  redactor: Redactor;
  logger: Logger;
}

/**
 * Socket Mode through `@slack/socket-mode`: `apps.connections.open` with the app token (at
 * `apiUrl`), then the WebSocket it names. An `events_api` envelope is acknowledged once the
 * receiver says so (its event committed in time); otherwise it is not, and Slack sends it again
 * as a retry (`retry_attempt`). Other envelopes are acknowledged at once. The library's own
 * reconnecting is off: a `disconnect` from Slack reconnects at once; a lost connection
 * reconnects with the kit's backoff (`reconnectMinMs`…`reconnectMaxMs`), and `problem` says why
 * the channel is degraded meanwhile.
 */
export class SocketTransport {
  readonly #client: SocketModeClient;
  readonly #reconnect: Reconnect;
  #stopped = true;
  #up = false;
  #timer: NodeJS.Timeout | undefined;
  /** Slack asked us to reconnect (`disconnect`, e.g. `refresh_requested`): not a failure. */
  #refresh: string | undefined;

  constructor(private readonly options: SocketOptions) {
    const { config, hooks } = options;
    this.#reconnect = new Reconnect({ initialMs: config.reconnectMinMs, maxMs: config.reconnectMaxMs, jitter: 0.5 });
    this.#client = new SocketModeClient({
      appToken: config.appToken,
      autoReconnectEnabled: false,
      logger: slackLogger(hooks.logger),
      clientOptions: webClientOptions(config, hooks),
    });
    this.#client.on("connected", () => {
      this.#up = true;
    });
    this.#client.on("disconnected", () => this.#lost());
    this.#client.on("ws_message", (data: unknown) => this.#frame(data));
    this.#client.on("slack_event", (envelope: SocketEnvelope) => void this.#envelope(envelope));
  }

  /** Why Socket Mode is down right now, or undefined while it is connected. */
  get problem(): string | undefined {
    if (this.#up || this.#stopped) return undefined;
    return this.#reconnect.problem ?? "Socket Mode is reconnecting";
  }

  /** Opens the first connection; throws a typed error when Slack cannot be reached or refuses the app token. */
  async start(): Promise<void> {
    this.#stopped = false;
    await this.#connect();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#up = false;
    await withTimeout(this.#client.disconnect(), STOP_WITHIN_MS, () => new Error("slow")).catch(() => undefined);
  }

  async #connect(): Promise<void> {
    const { timeoutMs } = this.options.config;
    const hello = () => new ChorusError("E_PLATFORM", `Slack Socket Mode: no hello within ${timeoutMs} ms`);
    try {
      // The open call has its own timeout; the WebSocket handshake and Slack's hello get one more.
      await withTimeout(this.#client.start(), timeoutMs * 2, hello);
    } catch (error) {
      this.#up = false;
      await withTimeout(this.#client.disconnect(), STOP_WITHIN_MS, hello).catch(() => undefined);
      throw this.options.redactor.error(connectError(error, timeoutMs));
    }
  }

  #lost(): void {
    if (!this.#up) return; // a failed attempt: #connect reports it
    this.#up = false;
    if (this.#stopped) return;
    const refresh = this.#refresh;
    this.#refresh = undefined;
    if (refresh !== undefined) {
      this.options.logger.info({ reason: refresh }, `slack: Socket Mode: Slack asked to reconnect (${refresh})`);
      this.#schedule(0);
      return;
    }
    this.#failed("the Socket Mode connection was lost");
  }

  #failed(problem: string): void {
    const wait = this.#reconnect.failed(problem);
    this.options.logger.warn({ problem, retryInMs: wait }, `slack: Socket Mode down (${problem}); reconnecting`);
    this.#schedule(wait);
  }

  #schedule(wait: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#retry(), wait);
  }

  async #retry(): Promise<void> {
    if (this.#stopped) return;
    try {
      await this.#connect();
      if (this.#reconnect.succeeded()) this.options.logger.info("slack: Socket Mode reconnected");
    } catch (error) {
      if (!this.#stopped) this.#failed(isChorusError(error) ? error.message : String(error));
    }
  }

  /** Watches raw frames for what the library keeps to itself: Slack's `disconnect`, and frames that are not JSON. */
  #frame(data: unknown): void {
    const text = typeof data === "string" ? data : Buffer.from(data as ArrayBuffer).toString("utf8");
    try {
      const frame = JSON.parse(text) as { type?: unknown; reason?: unknown };
      if (frame.type === "disconnect") this.#refresh = String(frame.reason ?? "disconnect");
    } catch {
      this.options.logger.warn(
        { frame: text.slice(0, 120) },
        "slack: Socket Mode sent a frame that is not JSON; skipped it",
      );
    }
  }

  async #envelope(envelope: SocketEnvelope): Promise<void> {
    if (envelope.type === "events_api") {
      if (envelope.retry_num)
        this.options.logger.debug(
          { retry: envelope.retry_num, reason: envelope.retry_reason },
          "slack: Slack retried an envelope",
        );
      // No ack: Slack delivers it again after its 3 s, as a retry.
      if (!(await this.options.receive(envelope.body))) return;
    }
    await envelope.ack().catch((error: unknown) => {
      this.options.logger.debug({ err: String(error) }, "slack: could not acknowledge an envelope; Slack will retry");
    });
  }
}

/** What `@slack/socket-mode` hands a `slack_event` listener. */
interface SocketEnvelope {
  type: string;
  body: unknown;
  /** Slack's `retry_attempt` (0 or absent on a first attempt) and `retry_reason`. */
  retry_num?: number;
  retry_reason?: string;
  ack(): Promise<void>;
}

function connectError(error: unknown, timeoutMs: number): ChorusError {
  if (isChorusError(error)) return error;
  const facts = {
    method: "apps.connections.open",
    token: "app",
    stopping: false,
    idempotent: true,
    timeoutMs,
  } as const;
  if (error instanceof Error && "code" in error && String(error.code).startsWith("slack_webapi")) {
    return slackError(error, facts);
  }
  const reason = error instanceof Error ? error.message : "the WebSocket closed before Slack said hello";
  return new ChorusError("E_PLATFORM", `Slack Socket Mode connection failed: ${reason}`, {
    retryable: true,
    cause: error,
    hint: "Check channels.slack.apiUrl and that the gateway can open WebSockets to Slack.",
  });
}
