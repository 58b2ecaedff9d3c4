import { abortableDelay, backoffDelay, Reconnect, type Redactor } from "@chorus/channel-kit";
import { type ChannelStatus, type ChannelStore, isChorusError, type Logger } from "@chorus/core";
import { type API, CloseReason, type GroupMessage, type Reaction, type UserMessage } from "zca-js";
import type { ZalouserConfig } from "./config.js";
import { createFrameOrder } from "./frame-order.js";
import { readSession, sessionSecrets, writeSession, type ZaloSession } from "./session.js";
import { createZalo } from "./zalo/client.js";
import { LOGIN_HINT, sessionEnded, zaloCall } from "./zalo/errors.js";

/** What the connection hands on from the listener. */
export interface ListenerSink {
  message(message: UserMessage | GroupMessage): void;
  reaction(reaction: Reaction): void;
}

/** The logged-in account: the API and who it is. */
export interface ZaloLink {
  readonly api: API;
  readonly uid: string;
  readonly name: string | undefined;
}

/** How often an account that is not linked looks for a session a login stored: 0.25 s growing to 5 s. */
const LINK_POLL = { initialMs: 250, maxMs: 5_000, jitter: 0.2 };

/**
 * One account's connection to Zalo: it waits for a linked session in the store (a login in
 * another process writes it), logs in with it through zca-js, keeps the listener connected with
 * the kit's backoff, and says in its status what is wrong — a session Zalo ended (stopped, with
 * the hint to log in again, until a new login arrives), or a connection that dropped.
 */
export class ZaloConnection {
  #link: ZaloLink | undefined;
  #status: ChannelStatus = { state: "stopped" };
  #stopped = false;
  #abort = new AbortController();
  #loop: Promise<void> | undefined;
  #firstOutcome: (() => void) | undefined;
  /** Set when Zalo ended the session while the listener ran. */
  #sessionOver = false;
  readonly #reconnect: Reconnect;
  /** Wraps each new listener socket so its frames are handled in the order they arrived. */
  readonly #inOrder: ReturnType<typeof createFrameOrder>;

  constructor(
    private readonly deps: {
      config: ZalouserConfig;
      store: ChannelStore;
      logger: Logger;
      redactor: Redactor;
      sink: ListenerSink;
      signal: AbortSignal;
    },
  ) {
    const { reconnectMinMs, reconnectMaxMs } = deps.config;
    this.#reconnect = new Reconnect({ initialMs: reconnectMinMs, maxMs: reconnectMaxMs, jitter: 0.5 });
    this.#inOrder = createFrameOrder({ logger: deps.logger, redactor: deps.redactor });
  }

  /** The logged-in account, or undefined while there is none. */
  get link(): ZaloLink | undefined {
    return this.#link;
  }

  status(): ChannelStatus {
    return this.#status;
  }

  /** Starts connecting; resolves once connected, or once the first attempt said why not (never later than `connectTimeoutMs`). */
  async start(): Promise<void> {
    this.#stopped = false;
    this.#abort = new AbortController();
    this.#status = { state: "starting" };
    const first = new Promise<void>((resolve) => {
      this.#firstOutcome = resolve;
    });
    this.#loop = this.#run().catch((error: unknown) => {
      // The loop handles every failure it expects; anything else is a bug worth a line, never a crash.
      this.deps.logger.error({ err: error }, `zalouser: the connection loop ended: ${String(error)}`);
      this.#status = { state: "degraded", detail: `connection loop ended: ${String(error)}` };
    });
    const waited = new AbortController();
    const stopWaiting = () => waited.abort();
    this.#abort.signal.addEventListener("abort", stopWaiting, { once: true });
    await Promise.race([first, abortableDelay(this.deps.config.connectTimeoutMs, waited.signal)]);
    // The timer never outlives start(): a gateway that stops at once is not held up by it.
    waited.abort();
    this.#abort.signal.removeEventListener("abort", stopWaiting);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#abort.abort();
    this.#link?.api.listener.stop();
    await this.#loop;
    this.#link = undefined;
    this.#status = { state: "stopped" };
  }

  /** A platform call failed: when Zalo said the session is over, the channel stops with the hint. */
  noteFailure(error: unknown): void {
    if (sessionEnded(error) && this.#link) this.#endSession((error as Error).message);
  }

  #settle(status: ChannelStatus): void {
    this.#status = status;
    this.#firstOutcome?.();
  }

  async #run(): Promise<void> {
    /** The `linkedAt` of a session Zalo refused: wait for a new login rather than knock again. */
    let refused: string | undefined;
    let polls = 0;
    while (!this.#stopped) {
      let session: ZaloSession | undefined;
      try {
        session = await readSession(this.deps.store);
      } catch (error) {
        this.#settle({ state: "stopped", detail: `${(error as Error).message}. ${LOGIN_HINT}` });
        await abortableDelay(backoffDelay(++polls, LINK_POLL), this.#abort.signal);
        continue;
      }
      if (!session || session.linkedAt === refused) {
        if (!session) this.#settle({ state: "degraded", detail: `not linked yet. ${LOGIN_HINT}` });
        await abortableDelay(backoffDelay(++polls, LINK_POLL), this.#abort.signal);
        continue;
      }
      polls = 0;
      this.deps.redactor.add(...sessionSecrets(session));
      const ended = await this.#connect(session);
      if (ended) refused = session.linkedAt;
    }
  }

  /** Logs in and listens until the session ends (true) or the connection must be tried again (false). */
  async #connect(session: ZaloSession): Promise<boolean> {
    try {
      this.#link = await this.#login(session);
    } catch (error) {
      const wait = this.#failed(error, "log in");
      if (wait === "ended") return true;
      await abortableDelay(wait, this.#abort.signal);
      return false;
    }
    const link = this.#link;
    this.#sessionOver = false;
    while (!this.#stopped) {
      const closed = await this.#listen(link);
      if (this.#stopped) return false;
      if (this.#sessionOver) return true;
      if (closed.code === CloseReason.KickConnection) {
        this.#endSession(`Zalo ended this session: the account logged in elsewhere (listener closed ${closed.code})`);
        return true;
      }
      const why =
        closed.code === CloseReason.DuplicateConnection
          ? "another Zalo Web connection of this session took over the listener (code 3000)"
          : `the listener disconnected (code ${closed.code}${closed.reason ? ` ${closed.reason}` : ""})`;
      const wait = this.#reconnect.failed(why);
      this.#settle({ state: "degraded", detail: `${why}; reconnecting` });
      this.deps.logger.warn({ code: closed.code, waitMs: wait }, `zalouser: ${why}; reconnecting in ${wait} ms`);
      await abortableDelay(wait, this.#abort.signal);
    }
    return false;
  }

  /** Says why a step failed; "ended" when Zalo refused the session, else how long to wait before trying again. */
  #failed(error: unknown, what: string): number | "ended" {
    const failure = this.deps.redactor.error(error);
    if (sessionEnded(failure) || (isChorusError(failure) && failure.code === "E_AUTH")) {
      this.#endSession(failure.message);
      return "ended";
    }
    const wait = this.#reconnect.failed(failure.message);
    this.#settle({ state: "degraded", detail: `could not ${what}: ${failure.message}; retrying` });
    this.deps.logger.warn({ err: failure, waitMs: wait }, `zalouser: could not ${what}: ${failure.message}`);
    return wait;
  }

  /** The session is over: stop and say how to link again (a new login is picked up by itself). */
  #endSession(why: string): void {
    this.#sessionOver = true;
    this.#link?.api.listener.stop();
    this.#link = undefined;
    this.deps.logger.error({ hint: LOGIN_HINT }, `zalouser: ${why}. ${LOGIN_HINT}`);
    this.#settle({ state: "stopped", detail: `${why}. ${LOGIN_HINT}` });
  }

  async #login(session: ZaloSession): Promise<ZaloLink> {
    const { config, redactor } = this.deps;
    const zalo = createZalo({
      apiBase: config.apiBase,
      mediaHosts: config.mediaHosts,
      timeoutMs: config.timeoutMs,
      signal: this.#abort.signal,
    });
    const { result: api } = await zaloCall(
      () =>
        zalo.login({
          imei: session.imei,
          userAgent: session.userAgent,
          language: session.language,
          cookie: session.cookies as never,
        }),
      { operation: "log in", policy: config, redactor, idempotent: true, signal: this.#abort.signal },
    );
    const context = api.getContext();
    if (context.secretKey) redactor.add(context.secretKey);
    await this.#keepCookies(session, api);
    return { api, uid: api.getOwnId(), name: session.name };
  }

  /** Zalo renews cookies as it answers: keep the jar's current ones for the next start. */
  async #keepCookies(session: ZaloSession, api: API): Promise<void> {
    const cookies = api.getCookie().toJSON()?.cookies ?? [];
    if (cookies.length === 0 || JSON.stringify(cookies) === JSON.stringify(session.cookies)) return;
    const current = await readSession(this.deps.store).catch(() => undefined);
    // A login that finished meanwhile wins: never overwrite a newer session with an older jar.
    if (current?.linkedAt !== session.linkedAt) return;
    this.deps.redactor.add(...cookies.map((c) => String(c.value)));
    await writeSession(this.deps.store, { ...session, cookies: cookies as ZaloSession["cookies"] });
  }

  /** Runs the listener until it closes; marks the channel running once Zalo sent the socket's key. */
  #listen(link: ZaloLink): Promise<{ code: number; reason: string }> {
    const listener = link.api.listener;
    return new Promise((resolve) => {
      // zca-js opens its socket in start() and says "connected" before any frame can arrive.
      const onConnected = () => this.#inOrder(listener);
      const onMessage = (message: UserMessage | GroupMessage) => this.deps.sink.message(message);
      const onReaction = (reaction: Reaction) => this.deps.sink.reaction(reaction);
      const onKey = () => {
        if (this.#reconnect.succeeded()) this.deps.logger.info("zalouser: the listener is connected again");
        this.#settle({ state: "running", detail: `connected as ${link.name ?? link.uid} (${link.uid})` });
      };
      const onError = (error: unknown) => {
        // A frame zca-js could not decode or parse: Zalo sent something this version does not know.
        if (error instanceof Error) {
          const problem = this.deps.redactor.text(error.message);
          this.deps.logger.warn({ problem }, `zalouser: could not read a listener event: ${problem}`);
        }
      };
      const onClosed = (code: number, reason: string) => {
        listener.off("connected", onConnected);
        listener.off("message", onMessage);
        listener.off("reaction", onReaction);
        listener.off("cipher_key", onKey);
        listener.off("error", onError);
        listener.off("closed", onClosed);
        resolve({ code, reason });
      };
      listener.on("connected", onConnected);
      listener.on("message", onMessage);
      listener.on("reaction", onReaction);
      listener.on("cipher_key", onKey);
      listener.on("error", onError);
      listener.on("closed", onClosed);
      try {
        listener.start();
      } catch (error) {
        onClosed(CloseReason.AbnormalClosure, String(error));
      }
    });
  }
}
