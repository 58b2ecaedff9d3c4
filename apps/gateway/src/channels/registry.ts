import type { Redactor } from "@chorus/channel-kit";
import { type ChannelCapabilities, type ChannelInstance, type ChannelPlugin, ChorusError } from "@chorus/core";
import type { ChannelSettings } from "../config/index.js";
import { type AccountKey, accountKey } from "./account-key.js";
import type { ChannelSupervisor } from "./supervisor.js";

/** One configured channel account the gateway runs. */
export interface ChannelEntry {
  plugin: ChannelPlugin<unknown>;
  /** What this account can do: the plugin's capabilities, its media as its config gives them (`mediaFor`). */
  capabilities: ChannelCapabilities;
  accountId: string;
  /** `accountKey(plugin.id, accountId)`. */
  key: AccountKey;
  /** Built into the gateway (the webchat), as discovery found it; not an installed package. */
  builtin: boolean;
  settings: ChannelSettings;
  supervisor: ChannelSupervisor;
  /** Removes this account's secrets from what its channel reports. */
  redactor: Redactor;
}

/** Every channel account of the running gateway, by channel id and account. */
export class ChannelRegistry {
  readonly #entries = new Map<string, ChannelEntry>();

  add(entry: ChannelEntry): void {
    this.#entries.set(entry.key, entry);
  }

  /** Whether this channel account is configured here. */
  has(key: AccountKey): boolean {
    return this.#entries.has(key);
  }

  all(): ChannelEntry[] {
    return [...this.#entries.values()];
  }

  /** The entry of exactly this channel account, if it runs here. */
  find(channel: string, account: string): ChannelEntry | undefined {
    const entry = this.#entries.get(accountKey(channel, account));
    return entry?.plugin.id === channel && entry.accountId === account ? entry : undefined;
  }

  /** The entry for `channel` (and `account`, or its only/default account), or a typed error. */
  get(channel: string, account?: string): ChannelEntry {
    const exact = account === undefined ? undefined : this.find(channel, account);
    if (exact) return exact;
    const accounts = this.all().filter((e) => e.plugin.id === channel);
    if (accounts.length === 0) {
      const known = [...new Set(this.all().map((e) => e.plugin.id))].join(", ") || "none";
      throw new ChorusError("E_INVALID_INPUT", `unknown channel "${channel}"; running channels: ${known}`);
    }
    const wanted = account ?? (accounts.length === 1 ? accounts[0]?.accountId : "default");
    const entry = accounts.find((e) => e.accountId === wanted);
    if (!entry) {
      const names = accounts.map((e) => e.accountId).join(", ");
      throw new ChorusError(
        "E_INVALID_INPUT",
        account
          ? `channel "${channel}" has no account "${account}"; accounts: ${names}`
          : `channel "${channel}" has several accounts (${names}); pass account`,
      );
    }
    return entry;
  }

  /** The running instance of an entry, or `E_DISABLED` saying why there is none. */
  instanceOf(entry: ChannelEntry): ChannelInstance {
    const instance = entry.supervisor.instance;
    if (instance) return instance;
    const status = entry.supervisor.status();
    throw new ChorusError(
      "E_DISABLED",
      `${entry.plugin.label} (${entry.accountId}) is not running: ${status.state}${status.detail ? ` (${status.detail})` : ""}`,
      { retryable: true },
    );
  }
}
