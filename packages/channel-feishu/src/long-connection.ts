import { abortableDelay, anySignal, Reconnect } from "@chorus/channel-kit";
import { type ChannelStatus, ChorusError } from "@chorus/core";
import * as lark from "@larksuiteoapi/node-sdk";
import type { SdkHttpInstance } from "./http.js";
import type { SdkLogger } from "./sdk-logger.js";

/** What the long connection is made of. */
export interface LongConnectionOptions {
  appId: string;
  appSecret: string;
  domain: string;
  http: SdkHttpInstance;
  logger: SdkLogger;
  /** The receiver (`receive.ts`): the SDK answers each event frame once it returned (code 200) or threw (code 500). */
  dispatcher: lark.EventDispatcher;
  /** How long a handshake, a missing pong and `start()`'s wait for the first connection may take. */
  timeoutMs: number;
  /** The wait before a new client after the SDK gave up, doubling up to `reconnectMaxMs`. */
  reconnectMinMs: number;
  reconnectMaxMs: number;
}

type State = "connecting" | "connected" | "reconnecting" | "failed" | "stopped";

/** Feishu's endpoint codes that mean the app may not connect: 514 auth failed, 403 forbidden. */
const REFUSED = /code=(514|403)\b/u;

/**
 * Events over the SDK's `WSClient`, the long connection (no public URL needed). The SDK asks
 * `/callback/ws/endpoint` for a WebSocket URL, speaks protobuf frames, pings, answers each event
 * frame after the receiver (code 200, or 500 when it threw: Feishu pushes it again) and reconnects
 * by the intervals Feishu's endpoint sets. This adds what the SDK leaves to
 * its user: a status saying why events are not arriving, and a fresh client (with backoff) when
 * the SDK gives up for good.
 */
export class LongConnection {
  #client: lark.WSClient | undefined;
  #state: State = "stopped";
  #problem: string | undefined;
  #ready: (() => void) | undefined;
  #failedStart: ((error: Error) => void) | undefined;
  readonly #backoff: Reconnect;
  #lifetime = new AbortController();

  constructor(private readonly options: LongConnectionOptions) {
    this.#backoff = new Reconnect({ initialMs: options.reconnectMinMs, maxMs: options.reconnectMaxMs, jitter: 0.5 });
  }

  /**
   * Connects; resolves once connected, or after `timeoutMs` (the SDK keeps trying, the status
   * says why). Rejects with `E_AUTH` when Feishu refuses the app a connection.
   */
  async start(): Promise<void> {
    this.#lifetime = new AbortController();
    const connected = new Promise<void>((resolve, reject) => {
      this.#ready = resolve;
      this.#failedStart = reject;
    });
    this.#open();
    const waited = new AbortController();
    const timedOut = abortableDelay(this.options.timeoutMs, anySignal([this.#lifetime.signal, waited.signal]));
    try {
      await Promise.race([connected, timedOut]);
    } finally {
      waited.abort();
      this.#ready = undefined;
      this.#failedStart = undefined;
    }
  }

  /** Closes the connection for good; no reconnect follows. */
  stop(): void {
    this.#lifetime.abort();
    this.#state = "stopped";
    this.#close();
  }

  /** Called with every long-connection complaint the SDK logs: the reason a degraded status gives. */
  noteProblem(text: string): void {
    if (this.#state !== "connected") this.#problem = text;
  }

  /** Undefined while connected (or stopped); else a degraded status saying why. */
  status(): ChannelStatus | undefined {
    const why = this.#problem ? `: ${this.#problem}` : "";
    switch (this.#state) {
      case "connecting":
        return { state: "degraded", detail: `the long connection is not established yet${why}` };
      case "reconnecting":
        return { state: "degraded", detail: `the long connection was lost, reconnecting${why}` };
      case "failed":
        return { state: "degraded", detail: `the long connection failed, retrying${why}` };
      default:
        return undefined;
    }
  }

  #open(): void {
    this.#close();
    this.#state = "connecting";
    const client = new lark.WSClient({
      appId: this.options.appId,
      appSecret: this.options.appSecret,
      domain: this.options.domain,
      httpInstance: this.options.http as unknown as lark.HttpInstance,
      logger: this.options.logger,
      loggerLevel: lark.LoggerLevel.info,
      autoReconnect: true,
      handshakeTimeoutMs: this.options.timeoutMs,
      // A socket that stops answering pings is given up after this long, and the SDK reconnects.
      wsConfig: { pingTimeout: Math.max(1, Math.ceil(this.options.timeoutMs / 1000)) },
      onReady: () => this.#connected(client),
      onReconnected: () => this.#connected(client),
      onReconnecting: () => {
        if (this.#client === client) this.#state = "reconnecting";
      },
      onError: (error) => this.#gaveUp(client, error),
    });
    this.#client = client;
    void client.start({ eventDispatcher: this.options.dispatcher });
  }

  #connected(client: lark.WSClient): void {
    if (this.#client !== client) return;
    this.#state = "connected";
    this.#problem = undefined;
    this.#backoff.succeeded();
    this.#ready?.();
  }

  /** The SDK stopped trying (a refusal, or its retries ran out): a new client after a backoff. */
  #gaveUp(client: lark.WSClient, error: Error): void {
    if (this.#client !== client || this.#lifetime.signal.aborted) return;
    this.#state = "failed";
    this.#problem = error.message;
    if (this.#failedStart && REFUSED.test(error.message)) {
      this.#failedStart(
        new ChorusError("E_AUTH", `Feishu refused the long connection: ${error.message}`, {
          hint: "Check appId and appSecret, and that the app uses the long connection (Events & Callbacks → Subscription mode).",
        }),
      );
      return;
    }
    const wait = this.#backoff.failed(error.message);
    void abortableDelay(wait, this.#lifetime.signal).then(() => {
      if (!this.#lifetime.signal.aborted && this.#client === client) this.#open();
    });
  }

  #close(): void {
    const client = this.#client;
    this.#client = undefined;
    client?.close({ force: true });
  }
}
