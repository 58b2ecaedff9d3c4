import { safeEqual } from "@chorus/channel-kit";
import type { WebchatHub } from "./hub.js";

export interface WebchatSiteOptions {
  /** The bot's name where `channels.webchat.botName` does not say (the default agent's name); default `Chorus`. */
  botName?: string;
}

/** Told when the running hub changes: a new one started, or none runs here any more (undefined). */
export type HubWatcher = (hub: WebchatHub | undefined) => void;

/**
 * The webchat as the gateway serves it: the page and the browsers' socket reach the hub of the
 * running instance through it. The plugin builds a hub from its context in `create` and puts it
 * here while it runs; with none running (not started yet, restarting, or running on another
 * gateway) there is no hub to reach.
 */
export class WebchatSite {
  readonly botName: string;
  #hub: WebchatHub | undefined;
  #title = "Chorus";
  #token: string | undefined;
  readonly #watchers = new Set<HubWatcher>();

  constructor(options: WebchatSiteOptions = {}) {
    this.botName = options.botName ?? "Chorus";
  }

  /** The running instance's hub, if one runs here. */
  get hub(): WebchatHub | undefined {
    return this.#hub;
  }

  /** The page title: `channels.webchat.title` of the last hub that ran, or `Chorus`. */
  get title(): string {
    return this.#title;
  }

  /**
   * The token browsers present, to the socket and to the webchat's routes alike (the gateway token,
   * set by `attachWebchatSocket`); undefined: none is admitted.
   */
  useToken(token: string | undefined): void {
    this.#token = token;
  }

  /** Whether `given` is the token (compared in constant time); false while no token is set. */
  admits(given: string | null | undefined): boolean {
    const token = this.#token;
    return token !== undefined && typeof given === "string" && safeEqual(given, token);
  }

  /** Makes `hub` the one browsers reach (an instance starting); watchers drop what they had. */
  serve(hub: WebchatHub): void {
    if (this.#hub === hub) return;
    this.#hub = hub;
    this.#title = hub.title;
    this.#tell(hub);
  }

  /** `hub` stops being reachable (its instance stopping); a newer hub already served stays. */
  withdraw(hub: WebchatHub): void {
    if (this.#hub !== hub) return;
    this.#hub = undefined;
    this.#tell(undefined);
  }

  /** Calls `watcher` on every change of the running hub; returns the function that stops it. */
  watch(watcher: HubWatcher): () => void {
    this.#watchers.add(watcher);
    return () => {
      this.#watchers.delete(watcher);
    };
  }

  #tell(hub: WebchatHub | undefined): void {
    for (const watcher of this.#watchers) watcher(hub);
  }
}
