import type { ChannelRegistry } from "./registry.js";

/** One channel account's state as watchers see it. */
export interface ChannelState {
  channel: string;
  account: string;
  /** The supervisor's state (`running`, `degraded`, `failed`, `starting`, `stopped`, …). */
  state: string;
  /** Whether the account can be used now (a running instance): its `message` tool is offered. */
  up: boolean;
  detail?: string;
  /** In state `failed`: what to fix (the config key). */
  fix?: string;
}

/** How often the registry is looked at for state changes. */
const WATCH_INTERVAL_MS = 200;

/**
 * Tells listeners when a channel account's state changes (started, went down, degraded, came
 * back) or when the set of accounts changes: the event stream's `status` events and the MCP
 * server's `tools/list_changed` follow it.
 */
export class ChannelWatch {
  readonly #listeners = new Set<(changed: ChannelState[], all: ChannelState[]) => void>();
  #last = new Map<string, string>();
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly registry: ChannelRegistry) {}

  /** Every account's state now. */
  states(): ChannelState[] {
    return this.registry.all().map((entry) => {
      const status = entry.supervisor.status();
      return {
        channel: entry.plugin.id,
        account: entry.accountId,
        state: status.state,
        up: entry.supervisor.instance !== undefined,
        ...(status.detail ? { detail: status.detail } : {}),
        ...(status.fix ? { fix: status.fix } : {}),
      };
    });
  }

  /** Calls `listener` with the accounts whose state changed; returns the way to stop listening. */
  listen(listener: (changed: ChannelState[], all: ChannelState[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  start(): void {
    this.#last = new Map(this.states().map((s) => [keyOf(s), signature(s)]));
    this.#timer = setInterval(() => this.#check(), WATCH_INTERVAL_MS);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#listeners.clear();
  }

  #check(): void {
    const all = this.states();
    const now = new Map(all.map((s) => [keyOf(s), signature(s)]));
    const changed = all.filter((s) => this.#last.get(keyOf(s)) !== signature(s));
    const gone = [...this.#last.keys()].filter((key) => !now.has(key));
    this.#last = now;
    if (changed.length === 0 && gone.length === 0) return;
    for (const listener of this.#listeners) listener(changed, all);
  }
}

function keyOf(state: ChannelState): string {
  return `${state.channel}:${state.account}`;
}

function signature(state: ChannelState): string {
  return `${state.state}:${state.up}`;
}
