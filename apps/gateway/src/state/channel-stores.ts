import { FileStore } from "@chorus/channel-kit/state";
import type { Logger } from "@chorus/core";
import { type ChorusPaths, channelStoreDir } from "../home.js";

/** The `ctx.store` of every channel account, one per account for the life of the gateway. */
export class ChannelStores {
  readonly #stores = new Map<string, FileStore>();

  constructor(
    private readonly paths: ChorusPaths,
    private readonly logger: Logger,
  ) {}

  /** The store of one channel account. */
  of(channel: string, accountId: string): FileStore {
    const key = `${channel}\u0000${accountId}`;
    let store = this.#stores.get(key);
    if (!store) {
      const log = this.logger;
      store = new FileStore({
        dir: channelStoreDir(this.paths, channel, accountId),
        warn: (message, error) => log.warn({ channel, account: accountId, err: error }, message),
      });
      this.#stores.set(key, store);
    }
    return store;
  }

  /** Resolves when every write to every store is on disk. */
  async flush(): Promise<void> {
    await Promise.all([...this.#stores.values()].map((store) => store.flush()));
  }
}
