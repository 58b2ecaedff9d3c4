import { type FSWatcher, watch } from "node:fs";
import type { Logger } from "@chorus/core";
import { baileysLogger } from "../connection/baileys-logger.js";
import { isLinked, openAuthState, type WhatsAppAuthState } from "./auth-state.js";
import { loginInProgress, mayCompleteLogin } from "./login-lock.js";

/** Where to watch, and whom to tell about a finished login. */
export interface LinkWatchOptions {
  /** The auth directory `chorus channels login` writes the credentials into. */
  readonly authDir: string;
  readonly logger: Logger;
  /** Called once with the credentials of the finished login; the watch has ended by then. */
  readonly linked: (auth: WhatsAppAuthState) => void;
}

/**
 * Waits for `chorus channels login` to link the account while the gateway runs: the login writes
 * the credentials into the watched directory and removes its lock when it is done. Checks run one
 * at a time; a burst of file events while one runs is answered by one more check.
 */
export class LinkWatch {
  #watcher: FSWatcher | undefined;
  #checking: Promise<void> | undefined;

  constructor(private readonly options: LinkWatchOptions) {}

  /** Whether the directory is being watched. */
  get watching(): boolean {
    return this.#watcher !== undefined;
  }

  /** Starts watching (a no-op while watching); a directory that cannot be watched is logged. */
  start(): void {
    if (this.#watcher) return;
    const { authDir, logger } = this.options;
    try {
      this.#watcher = watch(authDir, { persistent: false }, (_event, file) => {
        if (mayCompleteLogin(file === null ? null : String(file))) this.#check();
      });
    } catch (error) {
      logger.warn({ err: error }, "whatsapp: cannot watch for a login; restart the gateway after linking");
      return;
    }
    this.#watcher.on("error", (error) => {
      logger.warn({ err: error }, "whatsapp: stopped watching for a login; restart the gateway after linking");
      this.#close();
    });
  }

  /** Stops watching and waits for a check that is running. */
  async stop(): Promise<void> {
    this.#close();
    await this.#checking;
  }

  #close(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  #check(): void {
    if (this.#checking) {
      this.#checking = this.#checking.then(() => this.#tryLinked());
      return;
    }
    this.#checking = this.#tryLinked().finally(() => {
      this.#checking = undefined;
    });
  }

  async #tryLinked(): Promise<void> {
    const { authDir, logger } = this.options;
    if (!this.#watcher) return;
    try {
      if (await loginInProgress(authDir)) return;
      const auth = await openAuthState(authDir, baileysLogger(logger));
      if (!isLinked(auth.state.creds) || !this.#watcher) return;
      this.#close();
      this.options.linked(auth);
    } catch (error) {
      logger.warn({ err: error }, "whatsapp: could not read the credentials a login wrote");
    }
  }
}
