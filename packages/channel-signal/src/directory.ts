import { BoundedMap, CachedLookup } from "@chorus/channel-kit";
import type { Logger } from "@chorus/core";
import type { SignalRpc } from "./client.js";
import type { SignalGroup } from "./wire.js";

/** How long a group's title and members are kept before `listGroups` is asked again. */
export const GROUP_TTL_MS = 10 * 60_000;

/**
 * What the bot knows about groups and people: each group's title and members from `listGroups`
 * (cached, one request per group at a time, refreshed when the group changes), and the display
 * names senders carry (`sourceName`), for mentions and member lists.
 */
export class Directory {
  readonly #groups: CachedLookup<SignalGroup | undefined>;
  readonly #names = new BoundedMap<string, string>(5_000);

  constructor(
    rpc: SignalRpc,
    private readonly logger: Logger,
  ) {
    this.#groups = new CachedLookup({
      ttlMs: GROUP_TTL_MS,
      capacity: 500,
      load: async (groupId) => {
        const found = await rpc.call<SignalGroup[]>(
          "listGroups",
          { groupId: [groupId] },
          { idempotent: true, operation: `list group ${groupId}` },
        );
        return found.find((group) => group.id === groupId);
      },
    });
  }

  /** The group as `listGroups` says, or undefined when it cannot be asked right now (the event goes on without it). */
  async group(groupId: string, changed = false): Promise<SignalGroup | undefined> {
    if (changed) this.#groups.invalidate(groupId);
    try {
      return await this.#groups.get(groupId);
    } catch (error) {
      this.logger.debug({ groupId, error: (error as Error).message }, "signal: could not list the group");
      return undefined;
    }
  }

  /** Remembers a person's display name (a uuid and a number may both name them). */
  learn(name: string | null | undefined, ...ids: (string | null | undefined)[]): void {
    if (!name) return;
    for (const id of ids) if (id) this.#names.set(id, name);
  }

  /** The display name last seen for a uuid or number. */
  nameOf(id: string): string | undefined {
    return this.#names.get(id);
  }
}
