import { CachedLookup } from "@chorus/channel-kit";
import type { ChannelStore, Participant } from "@chorus/core";
import type { ThreadKind } from "./refs.js";

/** What the group info API says about a group, as the inbound events carry it. */
export interface GroupFacts {
  name: string;
  members: Participant[];
}

/** The answer of zca-js' `getGroupInfo` the channel reads. */
export interface GroupInfoAnswer {
  gridInfoMap?: Record<
    string,
    { name?: string; currentMems?: { id?: string; dName?: string; zaloName?: string }[]; memberIds?: string[] }
  >;
}

/** The store key of a conversation's kind: Zalo ids do not say whether they are a person or a group. */
const kindKey = (id: string) => `threads/${encodeURIComponent(id)}`;

/**
 * What the channel knows about conversations: whether an id is a person or a group (learned from
 * inbound messages and kept in the store, else asked of the group info API), and each group's
 * name and members, cached for `groupInfoTtlMs`.
 */
export class Threads {
  readonly #groups: CachedLookup<GroupFacts | undefined>;
  readonly #kinds = new Map<string, ThreadKind>();

  constructor(
    private readonly store: ChannelStore,
    groupInfo: (groupId: string) => Promise<GroupInfoAnswer>,
    ttlMs: number,
  ) {
    this.#groups = new CachedLookup({
      ttlMs,
      load: async (groupId) => {
        const info = (await groupInfo(groupId)).gridInfoMap?.[groupId];
        if (!info) return undefined;
        const names = new Map((info.currentMems ?? []).map((m) => [String(m.id), m.dName || m.zaloName]));
        const ids = info.memberIds?.length ? info.memberIds : [...names.keys()];
        return {
          name: info.name ?? groupId,
          members: ids.map((id): Participant => {
            const name = names.get(String(id));
            return { id: String(id), ...(name ? { name } : {}) };
          }),
        };
      },
    });
  }

  /** A group's name and members, or undefined for an id Zalo has no group for. */
  group(groupId: string): Promise<GroupFacts | undefined> {
    return this.#groups.get(groupId);
  }

  /** Remembers what an inbound message told about a conversation. */
  async learn(id: string, kind: ThreadKind): Promise<void> {
    if (this.#kinds.get(id) === kind) return;
    this.#kinds.set(id, kind);
    await this.store.set(kindKey(id), kind);
  }

  /** Whether `id` is a person or a group: remembered, else a group when the group info API knows it. */
  async kind(id: string): Promise<ThreadKind> {
    const known = this.#kinds.get(id) ?? (await this.store.get<string>(kindKey(id)));
    if (known === "user" || known === "group") return known;
    const kind: ThreadKind = (await this.group(id)) ? "group" : "user";
    await this.learn(id, kind);
    return kind;
  }
}
