import {
  type ClientOptions,
  type GatewaySendPayload,
  type IShardingStrategy,
  SimpleShardingStrategy,
  type WebSocketShardDestroyOptions,
} from "discord.js";

/** @discordjs/ws' manager, as `ws.buildStrategy` receives it (discord.js exports its own class by that name). */
type WSWebSocketManager = Parameters<NonNullable<NonNullable<ClientOptions["ws"]>["buildStrategy"]>>[0];

/** The two members of an @discordjs/ws 1.2.3 `WebSocketShard` that `retire` replaces (private there). */
interface ShardInternals {
  destroy(options?: WebSocketShardDestroyOptions): Promise<void>;
  internalConnect(): Promise<void>;
}

/**
 * discord.js' sharding strategy, with a way to end a client's shards for good. @discordjs/ws
 * 1.2.3 (under discord.js 14.28.1, pinned) can outlive `client.destroy()`: a shard destroyed while
 * it waits for HELLO or READY, or in its pause before reconnecting, starts a reconnecting destroy
 * of its own. That one connects again 500 ms later (a zombie session that logs in with the token
 * and reconnects forever), and it drops the first destroy's close handler, so `client.destroy()`
 * never resolves. A retired shard reconnects no more; what remains is the plain destroy. The
 * tests "a failed start leaves no connection behind" pin this down.
 */
export class ShardGuard {
  #strategy: SimpleShardingStrategy | undefined;
  #retired = false;

  /** The `ws.buildStrategy` of the client this guard belongs to. */
  build(manager: WSWebSocketManager): IShardingStrategy {
    const inner = new SimpleShardingStrategy(manager);
    this.#strategy = inner;
    return {
      spawn: async (shardIds: number[]) => {
        await inner.spawn(shardIds);
        if (this.#retired) this.#retireShards();
      },
      // A login that goes on after its client was given up (its REST call came back late) connects nothing.
      connect: async () => {
        if (!this.#retired) await inner.connect();
      },
      destroy: (options?: Omit<WebSocketShardDestroyOptions, "recover">) => inner.destroy(options),
      send: (shardId: number, payload: GatewaySendPayload) => inner.send(shardId, payload),
      fetchStatus: () => inner.fetchStatus(),
    };
  }

  /** From now on no shard of this client connects or reconnects; call it before `client.destroy()`. */
  retire(): void {
    this.#retired = true;
    this.#retireShards();
  }

  #retireShards(): void {
    const shards = (this.#strategy as unknown as { shards?: Map<number, ShardInternals> } | undefined)?.shards;
    for (const shard of shards?.values() ?? []) {
      const destroy = shard.destroy.bind(shard);
      // A destroy that would recover (reconnect or resume) does nothing; the final one runs as before.
      shard.destroy = (options = {}) => (options.recover === undefined ? destroy(options) : Promise.resolve());
      shard.internalConnect = async () => undefined;
    }
  }
}
