import type { Logger } from "pino";
import { type AccountKey, accountKey, type ChannelRegistry } from "../channels/index.js";
import type { GatewayConfig } from "../config/index.js";
import type { SessionEntry } from "../sessions/index.js";
import type { Sql, StateStore } from "../state/index.js";
import type { Account } from "./accounts.js";
import { LeaseKeeper } from "./leases.js";

/** The lease whose holder sends the heartbeats of accounts that run on every gateway. */
const HEARTBEATS_LEASE = "heartbeats";

/** Where each account runs when several gateways share the state, and the checks that keep it so. */
export interface LeasesHandle {
  /** The account runs under a lease (several gateways, and it holds a connection). */
  leased(key: AccountKey): boolean;
  /** Whether this gateway runs the account now (it is configured here, and holds its lease if it has one). */
  runsHere(key: AccountKey): boolean;
  /** The fencing check of the account's commits; undefined when it is not leased. */
  fenceOf(key: AccountKey): ((sql: Sql) => Promise<void>) | undefined;
  /** The gateway running the account: this one, another, or "" while nobody holds its lease. */
  holderOf(key: AccountKey): string;
  /** Reads the other gateways' leases from the table now, so `holderOf` is not seconds behind a takeover. */
  refreshHolders(): Promise<void>;
  /** Whether this gateway sends the session's heartbeats, and the fence of their commits. */
  beatsHere(session: SessionEntry): boolean;
  heartbeatFence(session: SessionEntry): ((sql: Sql) => Promise<void>) | undefined;
  /** Starts the accounts that run everywhere, and keeps the leases of the others (each started where it is held). */
  start(accounts: readonly Account[], onAcquired: () => void): Promise<void>;
  stop(): Promise<void>;
}

/**
 * With several gateways (PostgreSQL), each channel account that holds a connection runs on exactly
 * one of them, under a lease; accounts that only take webhooks run everywhere. With one gateway
 * every account runs here and nothing is leased.
 */
export function createLeases(options: {
  config: GatewayConfig;
  state: StateStore;
  shared: boolean;
  gatewayId: string;
  registry: ChannelRegistry;
  logger: Logger;
}): LeasesHandle {
  const { config, state, shared, gatewayId, registry, logger } = options;
  const leasedKeys = new Set<AccountKey>();
  const holders = new Map<string, string>();
  let onAcquired: () => void = () => undefined;
  const keeper = new LeaseKeeper({
    state,
    holder: gatewayId,
    ttlMs: config.state.backend === "postgres" ? config.state.leaseMs : 10_000,
    logger,
    onAcquired: () => onAcquired(),
  });
  const beating = shared && config.agents.defaults.heartbeat !== undefined;
  const leaseOf = (session: SessionEntry): string => {
    const key = accountKey(session.channel, session.accountId);
    return leasedKeys.has(key) ? key : HEARTBEATS_LEASE;
  };
  // Other gateways' leases as the table says (for `chorus channels`): every 2 s, and whenever asked.
  const watchHolders = async () => {
    const now = Date.now();
    const fresh = new Map<string, string>();
    for (const lease of await state.leases.all()) fresh.set(lease.name, lease.expiresAt > now ? lease.holder : "");
    holders.clear();
    for (const [name, holder] of fresh) holders.set(name, holder);
  };
  let watching: NodeJS.Timeout | undefined;

  return {
    leased: (key) => leasedKeys.has(key),
    runsHere: (key) => registry.has(key) && (!leasedKeys.has(key) || keeper.held(key) !== undefined),
    fenceOf: (key) => keeper.fence(key),
    holderOf: (key) => (leasedKeys.has(key) ? (keeper.held(key) ? gatewayId : (holders.get(key) ?? "")) : gatewayId),
    refreshHolders: () => (shared ? watchHolders() : Promise.resolve()),
    beatsHere: (session) => !shared || keeper.held(leaseOf(session)) !== undefined,
    heartbeatFence: (session) => (shared ? keeper.fence(leaseOf(session)) : undefined),
    async start(accounts, acquired) {
      onAcquired = acquired;
      for (const account of accounts) if (shared && account.holdsConnection) leasedKeys.add(account.key);
      await Promise.all(accounts.filter((a) => !leasedKeys.has(a.key)).map((a) => a.entry.supervisor.start()));
      keeper.start([
        ...accounts
          .filter((a) => leasedKeys.has(a.key))
          .map((a) => ({
            name: a.key,
            start: async () => {
              a.entry.supervisor = a.supervise();
              await a.entry.supervisor.start();
            },
            stop: () => a.entry.supervisor.stop(),
          })),
        ...(beating ? [{ name: HEARTBEATS_LEASE, start: async () => undefined, stop: async () => undefined }] : []),
      ]);
      if (shared) {
        watching = setInterval(() => void watchHolders().catch(() => undefined), 2_000);
        watching.unref();
      }
    },
    async stop() {
      if (watching) clearInterval(watching);
      await keeper.stop();
    },
  };
}
