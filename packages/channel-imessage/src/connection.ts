import { Reconnect } from "@chorus/channel-kit";
import { type ChannelStatus, ChorusError, type Logger } from "@chorus/core";
import type { BlueBubblesClient } from "./client.js";
import { AUTH_HINT } from "./envelope.js";
import { checkServer, type ServerHealth } from "./health.js";

export interface ConnectionOptions {
  client: BlueBubblesClient;
  /** The webhook URL (with its secret) to keep registered, and whether to register it. */
  webhook: { url: string; register: boolean };
  /** The URL as logged and shown: without the secret. */
  shownUrl: string;
  /** The wait before the first re-check of an unreachable server, doubling up to `reconnectMaxMs`. */
  reconnectMinMs: number;
  reconnectMaxMs: number;
  logger: Logger;
}

/**
 * The instance's link to its BlueBubbles server: checks it on start (reachable, password,
 * Private API, webhook registered) and, while it is unreachable, re-checks it with the kit's
 * reconnect backoff until it answers again. Its status says what is wrong in words.
 */
export class Connection {
  #health: ServerHealth | undefined;
  #status: ChannelStatus = { state: "stopped" };
  #timer: NodeJS.Timeout | undefined;
  #checking: Promise<void> | undefined;
  #stopped = true;
  readonly #reconnect: Reconnect;

  constructor(private readonly options: ConnectionOptions) {
    this.#reconnect = new Reconnect({ initialMs: options.reconnectMinMs, maxMs: options.reconnectMaxMs, jitter: 0.5 });
  }

  /** Checks the server once; throws `E_AUTH` when the password is refused, else never. */
  async start(): Promise<void> {
    this.#stopped = false;
    this.#status = { state: "starting" };
    await this.check();
    if (this.#health && !this.#health.authorized && this.#health.reachable) {
      throw new ChorusError("E_AUTH", `BlueBubbles server ${this.#serverName()} refused the password`, {
        hint: AUTH_HINT,
      });
    }
  }

  /** Stops re-checking. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#status = { state: "stopped" };
  }

  /** Runs a check now (one at a time) and schedules the next one while the server is down. */
  check(): Promise<void> {
    this.#checking ??= this.#check().finally(() => {
      this.#checking = undefined;
    });
    return this.#checking;
  }

  /** Told by the client whether the server answered; a lost server starts the backoff re-checks. */
  reachability(reachable: boolean): void {
    if (this.#stopped) return;
    const down = this.#health !== undefined && !this.#health.reachable;
    if (!reachable && !down && this.#checking === undefined) {
      const problem = `BlueBubbles server ${this.#serverName()} is unreachable`;
      this.#status = { state: "degraded", detail: problem };
      this.#schedule(problem);
    } else if (reachable && down && this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      void this.check();
    }
  }

  /** The last check's findings (for `chorus doctor`), undefined before the first. */
  health(): ServerHealth | undefined {
    return this.#health;
  }

  /** Whether tapbacks, replies and typing can work (Private API enabled and connected). */
  privateApi(): boolean {
    return this.#health?.privateApi ?? false;
  }

  status(): ChannelStatus {
    return this.#status;
  }

  async #check(): Promise<void> {
    const health = await checkServer(this.options.client, this.options.webhook);
    if (this.#stopped) return;
    this.#health = health;
    const facts = [
      `server ${this.#serverName()}${health.serverVersion ? ` v${health.serverVersion}` : ""}`,
      health.account ? `account ${health.account}` : undefined,
      `Private API ${health.privateApi ? "enabled" : "disabled"}`,
      `webhook ${this.options.shownUrl} ${health.webhook}`,
    ].filter(Boolean);
    if (health.problems.length === 0) {
      this.#reconnect.succeeded();
      this.#status = { state: "running", detail: facts.join("; ") };
      if (health.webhook === "added")
        this.options.logger.info({ webhook: this.options.shownUrl }, "imessage: registered the webhook");
      return;
    }
    this.#status = { state: "degraded", detail: `${health.problems.join("; ")} (${facts.join("; ")})` };
    this.options.logger.warn({ problems: health.problems }, "imessage: the BlueBubbles server is not fully usable");
    if (!health.reachable || health.webhook === "missing") this.#schedule(health.problems.join("; "));
  }

  #schedule(problem: string): void {
    if (this.#stopped || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.check();
    }, this.#reconnect.failed(problem));
    this.#timer.unref?.();
  }

  #serverName(): string {
    return this.options.client.serverUrl;
  }
}
