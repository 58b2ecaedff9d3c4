import { Reconnect, type Redactor } from "@chorus/channel-kit";
import { type ChannelStatus, ChorusError, type Logger } from "@chorus/core";
import { DisconnectReason, type GroupMetadata, type proto, type WAMessageKey } from "@whiskeysockets/baileys";
import type { WhatsAppConfig } from "../config.js";
import { type BotIdentity, botIdentityOf } from "../jids.js";
import { isLinked, openAuthState, type WhatsAppAuthState } from "../link/auth-state.js";
import { LinkWatch } from "../link/link-watch.js";
import { loginInProgress } from "../link/login-lock.js";
import { linkedDeviceSecrets } from "../link/secrets.js";
import { loggedOutDetail, notLinkedDetail, unlinkedError } from "../link/unlinked.js";
import { baileysLogger } from "./baileys-logger.js";
import { disconnectCode, openSocket, type WASocket } from "./socket.js";

/** What one account's connection needs from the instance. */
export interface ConnectionOptions {
  readonly config: WhatsAppConfig;
  readonly channel: string;
  readonly accountId: string;
  /** Where the credentials live (`authDirOf`). */
  readonly authDir: string;
  /** The instance's logger, already redacted. */
  readonly logger: Logger;
  /** Learns the linked device's secrets whenever credentials are read or change. */
  readonly redactor: Redactor;
  /** Wires the instance's event listeners to each new socket. */
  readonly attach: (socket: WASocket) => void;
  readonly getMessage?: (key: WAMessageKey) => Promise<proto.IMessage | undefined>;
  readonly cachedGroupMetadata?: (jid: string) => Promise<GroupMetadata | undefined>;
}

/** Restart requests answered at once in a row; more are backed off like any other close. */
const MAX_RESTARTS_IN_A_ROW = 3;

type Phase = "stopped" | "not-linked" | "connecting" | "open" | "reconnecting" | "logged-out";

/**
 * The account's link to WhatsApp: one Baileys socket at a time. Reconnects at once when
 * WhatsApp asks for a restart (515, right after linking), with the kit's backoff after any other
 * close, and stops for good when WhatsApp logged the device out (401), deleting the credentials
 * that are useless from then on. Without linked credentials it never connects; it waits for
 * `chorus channels login` to link the account (`LinkWatch`).
 */
export class WhatsAppConnection {
  #phase: Phase = "stopped";
  #detail: string | undefined;
  #auth: WhatsAppAuthState | undefined;
  #socket: WASocket | undefined;
  #identity: BotIdentity | undefined;
  readonly #reconnect: Reconnect;
  /** Restart requests (515) answered in a row without an open connection in between. */
  #restarts = 0;
  #timer: NodeJS.Timeout | undefined;
  /** start() gave up waiting for the first connection: "connecting" now reads as degraded. */
  #waitedOut = false;
  readonly #linkWatch: LinkWatch;
  readonly #listeners = new Set<() => void>();

  constructor(private readonly options: ConnectionOptions) {
    const { reconnectMinMs, reconnectMaxMs } = options.config;
    this.#reconnect = new Reconnect({ initialMs: reconnectMinMs, maxMs: reconnectMaxMs, jitter: 0.5 });
    this.#linkWatch = new LinkWatch({
      authDir: options.authDir,
      logger: options.logger,
      linked: (auth) => this.#linked(auth),
    });
  }

  /**
   * Opens the credentials and connects. Resolves once connected, or after `connectTimeoutMs`
   * still trying in the background (status degraded), or at once when no device is linked.
   */
  async start(): Promise<void> {
    const { config, logger } = this.options;
    this.#waitedOut = false;
    this.#reconnect.succeeded();
    this.#restarts = 0;
    this.#auth = await openAuthState(this.options.authDir, baileysLogger(logger));
    const { creds } = this.#auth.state;
    this.options.redactor.add(...linkedDeviceSecrets(creds));
    if (!isLinked(creds) || (await loginInProgress(this.options.authDir))) {
      this.#setPhase("not-linked", notLinkedDetail(this.options.accountId));
      logger.warn({ authDir: this.options.authDir }, `whatsapp: ${this.#detail}`);
      this.#linkWatch.start();
      return;
    }
    this.#identity = botIdentityOf(creds.me, this.options.channel, this.options.accountId);
    this.#setPhase("connecting", `connecting to ${config.waWebSocketUrl}`);
    this.#connect();
    const open = await this.#waitFor(
      () => this.#phase !== "connecting" && this.#phase !== "reconnecting",
      config.connectTimeoutMs,
    );
    if (!open && this.#phase === "connecting") this.#waitedOut = true;
  }

  /** Ends the socket and any pending reconnect; waits for credentials to be written. */
  async stop(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#linkWatch.stop();
    const socket = this.#socket;
    this.#socket = undefined;
    this.#setPhase("stopped", undefined);
    await socket?.end(undefined);
    await this.#auth?.settled();
  }

  /** The open socket, waiting up to `connectTimeoutMs` while it (re)connects. */
  async ready(): Promise<WASocket> {
    if (this.#phase === "connecting" || this.#phase === "reconnecting") {
      await this.#waitFor(
        () => this.#phase !== "connecting" && this.#phase !== "reconnecting",
        this.options.config.connectTimeoutMs,
      );
    }
    const socket = this.#socket;
    if (this.#phase === "open" && socket) return socket;
    if (this.#phase === "not-linked" || this.#phase === "logged-out") {
      throw unlinkedError(this.#detail ?? "", this.options.accountId);
    }
    if (this.#phase === "stopped") throw new ChorusError("E_DISABLED", "WhatsApp is not started");
    throw new ChorusError("E_PLATFORM", `WhatsApp is not connected: ${this.#detail ?? "reconnecting"}`, {
      retryable: true,
      details: { notConnected: true },
    });
  }

  /** The linked account, once credentials were read. */
  identity(): BotIdentity | undefined {
    return this.#identity;
  }

  /** The linked account; `E_AUTH` when no device is linked, `E_DISABLED` before `start()`. */
  requireIdentity(): BotIdentity {
    if (this.#identity) return this.#identity;
    if (this.#phase === "not-linked" || this.#phase === "logged-out") {
      throw unlinkedError(this.#detail ?? "", this.options.accountId);
    }
    throw new ChorusError("E_DISABLED", "WhatsApp is not started");
  }

  status(): ChannelStatus {
    switch (this.#phase) {
      case "open":
        return { state: "running", ...(this.#detail ? { detail: this.#detail } : {}) };
      case "connecting":
        return this.#waitedOut
          ? { state: "degraded", detail: `no connection yet (${this.#detail}); still trying` }
          : { state: "starting", ...(this.#detail ? { detail: this.#detail } : {}) };
      case "reconnecting":
        return { state: "degraded", ...(this.#detail ? { detail: this.#detail } : {}) };
      default:
        return { state: "stopped", ...(this.#detail ? { detail: this.#detail } : {}) };
    }
  }

  #connect(): void {
    const auth = this.#auth;
    if (!auth) return;
    const { redactor, channel, accountId } = this.options;
    const socket = openSocket({
      config: this.options.config,
      auth,
      logger: this.options.logger,
      ...(this.options.getMessage ? { getMessage: this.options.getMessage } : {}),
      ...(this.options.cachedGroupMetadata ? { cachedGroupMetadata: this.options.cachedGroupMetadata } : {}),
    });
    this.#socket = socket;
    socket.ev.on("creds.update", (update) => {
      redactor.add(...linkedDeviceSecrets(auth.state.creds));
      if (update.me && socket === this.#socket) this.#identity = botIdentityOf(auth.state.creds.me, channel, accountId);
    });
    socket.ev.on("connection.update", (update) => {
      if (socket !== this.#socket) return;
      if (update.qr) {
        void this.#refused(socket);
        return;
      }
      if (update.connection === "open") this.#opened();
      else if (update.connection === "close") this.#closed(update.lastDisconnect?.error);
    });
    this.options.attach(socket);
  }

  #opened(): void {
    this.#reconnect.succeeded();
    this.#restarts = 0;
    this.#waitedOut = false;
    const who = this.#identity;
    const as = who ? `${who.e164}${who.name ? ` (${who.name})` : ""}` : "the linked account";
    this.#setPhase("open", `connected as ${as}`);
    this.options.logger.info({ account: who?.e164 }, "whatsapp: connected");
  }

  #closed(error: Error | undefined): void {
    this.#socket = undefined;
    const code = disconnectCode(error);
    if (code === DisconnectReason.loggedOut) {
      void this.#loggedOut();
      return;
    }
    // A restart request is answered at once, but a server repeating it is backed off like any close.
    if (code === DisconnectReason.restartRequired && this.#restarts++ < MAX_RESTARTS_IN_A_ROW) {
      this.options.logger.debug({}, "whatsapp: the server asked for a restart; reconnecting");
      this.#connect();
      return;
    }
    const reason = `${error?.message ?? "connection closed"}${code !== undefined ? ` (${code})` : ""}`;
    const wait = this.#reconnect.failed(reason);
    const attempt = this.#reconnect.failures;
    this.#setPhase(
      "reconnecting",
      `connection closed: ${reason}; reconnecting in ${wait < 1000 ? `${wait} ms` : `${Math.round(wait / 1000)} s`} (attempt ${attempt})`,
    );
    this.options.logger.warn({ code, retryInMs: wait, attempt }, `whatsapp: connection closed: ${reason}`);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#phase === "reconnecting") this.#connect();
    }, wait);
  }

  /** WhatsApp no longer accepts these credentials: deleted, and nothing reconnects until a new link. */
  async #loggedOut(): Promise<void> {
    this.#setPhase("logged-out", loggedOutDetail(this.options.accountId));
    this.options.logger.error({ authDir: this.options.authDir }, `whatsapp: ${this.#detail}`);
    try {
      await this.#auth?.clear();
    } catch (error) {
      this.options.logger.warn({ err: error }, "whatsapp: could not delete the logged-out credentials");
    }
    this.#linkWatch.start();
  }

  /** A login finished while this instance waited: connect with its credentials. */
  #linked(auth: WhatsAppAuthState): void {
    if (this.#phase !== "not-linked" && this.#phase !== "logged-out") return;
    const { channel, accountId, config, logger, redactor } = this.options;
    this.#auth = auth;
    redactor.add(...linkedDeviceSecrets(auth.state.creds));
    this.#identity = botIdentityOf(auth.state.creds.me, channel, accountId);
    this.#reconnect.succeeded();
    this.#restarts = 0;
    logger.info({ account: this.#identity?.e164 }, "whatsapp: linked; connecting");
    this.#setPhase("connecting", `linked; connecting to ${config.waWebSocketUrl}`);
    this.#connect();
  }

  /** WhatsApp answered the login with a QR code: it does not know this device any more. */
  async #refused(socket: WASocket): Promise<void> {
    this.#socket = undefined;
    await this.#loggedOut();
    await socket.end(undefined);
  }

  #setPhase(phase: Phase, detail: string | undefined): void {
    this.#phase = phase;
    this.#detail = detail;
    for (const listener of [...this.#listeners]) listener();
  }

  /** Resolves true as soon as `done()` holds, false after `timeoutMs`. */
  #waitFor(done: () => boolean, timeoutMs: number): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (result: boolean) => {
        clearTimeout(timer);
        this.#listeners.delete(check);
        resolve(result);
      };
      const check = () => {
        if (done()) finish(true);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      this.#listeners.add(check);
    });
  }
}
