import { Reconnect, type Redactor, withTimeout } from "@chorus/channel-kit";
import { type ChannelStatus, ChorusError, type Logger } from "@chorus/core";
import { type Client, type ClientUser, Events } from "discord.js";
import { createDiscordClient } from "./client.js";
import type { DiscordConfig } from "./config.js";
import { gatewayCloseError, gatewayCloseReason, toDiscordError } from "./errors.js";
import { ShardGuard } from "./shards.js";

/** How long destroying a client may take (its closing handshake) before it is left to finish alone. */
const DESTROY_WAIT_MS = 5_000;

/** What the connection needs from the instance. */
export interface ConnectionDeps {
  readonly config: DiscordConfig;
  /** Already redacting. */
  readonly logger: Logger;
  readonly redactor: Redactor;
  /** Wires a new client's inbound listeners; `current()` is false once the client was replaced. */
  attach(client: Client, current: () => boolean): void;
  /** Told the bot's account when a login reaches READY (before any queued event is handled). */
  ready(user: ClientUser): void;
}

/**
 * The bot's gateway session through one discord.js Client at a time. `open` logs in and waits
 * for READY and the guilds, at most `readyTimeoutMs`; a login that fails destroys its client and
 * leaves nothing behind: no timer, no promise without a handler. discord.js resumes ordinary
 * connection losses itself; when Discord ends the session for good (a close code it does not take
 * back: a revoked token, a refused intent), this logs in again with backoff, and the status says why.
 */
export class DiscordConnection {
  /** The client that reached READY. */
  #client: Client | undefined;
  /** A client still logging in. */
  #pending: Client | undefined;
  readonly #guards = new WeakMap<Client, ShardGuard>();
  #status: ChannelStatus = { state: "stopped" };
  #open = false;
  #stopping = new AbortController();
  #retry: NodeJS.Timeout | undefined;
  readonly #reconnect: Reconnect;

  constructor(private readonly deps: ConnectionDeps) {
    const { reconnectMinMs, reconnectMaxMs } = deps.config;
    this.#reconnect = new Reconnect({
      initialMs: reconnectMinMs,
      maxMs: Math.max(reconnectMinMs, reconnectMaxMs),
      jitter: 0.5,
    });
  }

  /** The client that is logged in, or undefined. */
  get client(): Client | undefined {
    return this.#client;
  }

  /** The connection's status, without secrets. */
  status(): ChannelStatus {
    return this.deps.redactor.status(this.#status);
  }

  /** Logs in; rejects with a typed error without secrets (and a degraded status saying why). */
  async open(): Promise<ClientUser> {
    await this.close();
    this.#stopping = new AbortController();
    const stopping = this.#stopping.signal;
    this.#status = { state: "starting" };
    try {
      const user = await this.#login(stopping);
      this.#open = true;
      this.#running(user);
      return user;
    } catch (error) {
      const reason = this.deps.redactor.error(error);
      if (!stopping.aborted) this.#status = { state: "degraded", detail: reason.message };
      throw reason;
    }
  }

  /** Ends the session: cancels a login in progress or a planned one, and destroys the client. */
  async close(): Promise<void> {
    this.#open = false;
    this.#stopping.abort();
    clearTimeout(this.#retry);
    this.#retry = undefined;
    const clients = [this.#pending, this.#client];
    this.#pending = undefined;
    this.#client = undefined;
    for (const client of clients) if (client) await this.#discard(client);
    this.#status = { state: "stopped" };
  }

  async #login(stopping: AbortSignal): Promise<ClientUser> {
    const { config } = this.deps;
    const guard = new ShardGuard();
    const client = createDiscordClient(config, guard);
    this.#guards.set(client, guard);
    this.#pending = client;
    const facts = { closeCode: undefined as number | undefined, lost: 0 };
    this.#watch(client, facts);
    this.deps.attach(client, () => this.#client === client || this.#pending === client);
    const ready = new Promise<void>((resolve) =>
      client.once(Events.ClientReady, (ready) => {
        this.deps.ready(ready.user);
        resolve();
      }),
    );
    try {
      const late = () => {
        const lost = facts.lost > 0 ? ` (the connection was lost ${facts.lost} times)` : "";
        return new ChorusError(
          "E_PLATFORM",
          `Discord gateway sent no READY within ${config.readyTimeoutMs} ms${lost}`,
          { retryable: true, hint: "Check apiRoot and that Discord is reachable from here." },
        );
      };
      await deadline(Promise.all([client.login(config.token), ready]), config.readyTimeoutMs, stopping, late);
      if (!client.user) throw new ChorusError("E_PLATFORM", "Discord READY carried no bot user");
      if (this.#pending === client) this.#pending = undefined;
      this.#client = client;
      return client.user;
    } catch (error) {
      if (this.#pending === client) this.#pending = undefined;
      await this.#discard(client);
      if (facts.closeCode !== undefined && !(error instanceof ChorusError)) {
        throw gatewayCloseError(facts.closeCode, error);
      }
      throw toDiscordError(error, "login");
    }
  }

  /** Status from the client's shard events, and the re-login when Discord ends the session for good. */
  #watch(client: Client, facts: { closeCode: number | undefined; lost: number }): void {
    const live = () => this.#open && this.#client === client;
    client.on(Events.ShardDisconnect, (event) => {
      // discord.js emits this only for close codes it will not resume or reconnect after.
      facts.closeCode = event.code;
      if (live()) this.#planLogin(gatewayCloseReason(event.code));
    });
    client.on(Events.ShardReconnecting, () => {
      facts.lost += 1;
      if (live()) this.#status = { state: "degraded", detail: "gateway connection lost; reconnecting" };
    });
    const resumed = () => {
      if (live() && client.user) this.#running(client.user);
    };
    client.on(Events.ShardResume, resumed);
    client.on(Events.ShardReady, resumed);
    client.on(Events.ShardError, (error) => this.deps.logger.debug({ err: error }, "discord: gateway socket error"));
    client.on(Events.Error, (error) => this.deps.logger.warn({ err: error }, "discord: client error"));
  }

  #running(user: ClientUser): void {
    this.#status = { state: "running", detail: `connected as ${user.tag}` };
  }

  #planLogin(reason: string): void {
    const wait = this.#reconnect.failed(reason);
    this.#status = { state: "degraded", detail: `${reason}; logging in again in ${wait} ms` };
    this.deps.logger.warn({ retryInMs: wait }, `discord: ${reason}; logging in again in ${wait} ms`);
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => void this.#relogin(), wait);
  }

  /** Replaces a client Discord gave up on; never rejects (a failure plans the next attempt). */
  async #relogin(): Promise<void> {
    this.#retry = undefined;
    const stopping = this.#stopping.signal;
    if (!this.#open || stopping.aborted) return;
    const old = this.#client;
    this.#client = undefined;
    if (old) await this.#discard(old);
    try {
      const user = await this.#login(stopping);
      if (!this.#open) return;
      this.#reconnect.succeeded();
      this.#running(user);
      this.deps.logger.info("discord: logged in again");
    } catch (error) {
      if (this.#open && !stopping.aborted) this.#planLogin(this.deps.redactor.error(error).message);
    }
  }

  /** Destroys a client, so that nothing of it connects again; never rejects. */
  async #discard(client: Client): Promise<void> {
    this.#guards.get(client)?.retire();
    try {
      await withTimeout(client.destroy(), DESTROY_WAIT_MS, () => new Error(`not done after ${DESTROY_WAIT_MS} ms`));
    } catch (error) {
      this.deps.logger.warn({ err: error }, "discord: destroying the client failed");
    }
  }
}

/**
 * Settles like `work`, or rejects with `late()` after `ms`, or with E_DISABLED once `stopping`
 * aborts; the timer and the abort listener never outlive it, and a later rejection of `work` is
 * handled (by the race).
 */
async function deadline<T>(work: Promise<T>, ms: number, stopping: AbortSignal, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(late()), ms);
        onAbort = () => reject(new ChorusError("E_DISABLED", "Discord login cancelled: the channel is stopping"));
        if (stopping.aborted) onAbort();
        else stopping.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) stopping.removeEventListener("abort", onAbort);
  }
}
