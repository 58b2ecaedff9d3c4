import { CachedLookup } from "@chorus/channel-kit";
import type { Logger, Participant } from "@chorus/core";
import type { SlackApi } from "./api.js";
import type { SlackConversation, SlackUser } from "./wire.js";

/** What the normaliser learns about a conversation: its title and, for groups, its members. */
export interface ConversationFacts {
  readonly id: string;
  readonly name?: string;
  readonly isDirect: boolean;
  readonly title?: string;
  readonly members?: readonly Participant[];
}

/** Members whose names are looked up at most, so a 5,000-person channel does not cost 5,000 calls. */
export const MAX_MEMBERS = 50;

/**
 * Names of people and conversations, from `users.info`, `conversations.info` and
 * `conversations.members`, kept for `ttlMs` with one request in flight per id (the kit's
 * `CachedLookup`). A lookup that fails gives what is known (the id) and a debug line: a message
 * is never dropped because its sender's name could not be fetched.
 */
export class Directory {
  readonly #users: CachedLookup<Participant>;
  readonly #conversations: CachedLookup<ConversationFacts>;

  constructor(
    api: SlackApi,
    ttlMs: number,
    private readonly logger: Logger,
  ) {
    this.#users = new CachedLookup({
      ttlMs,
      load: async (id) => {
        const { user } = await api.call("users.info", (web) => web.users.info({ user: id }));
        return participant(id, user as SlackUser | undefined);
      },
    });
    this.#conversations = new CachedLookup({
      ttlMs,
      load: async (id) => {
        const { channel } = await api.call("conversations.info", (web) => web.conversations.info({ channel: id }));
        const info = (channel ?? { id }) as SlackConversation;
        if (info.is_im) return { id, isDirect: true };
        const { members = [] } = await api.call("conversations.members", (web) =>
          web.conversations.members({ channel: id, limit: MAX_MEMBERS }),
        );
        const people = await Promise.all(members.slice(0, MAX_MEMBERS).map((member) => this.user(member)));
        const title = info.is_mpim ? people.map((p) => p.name ?? p.id).join(", ") : info.name;
        return {
          id,
          isDirect: false,
          ...(info.name ? { name: info.name } : {}),
          ...(title ? { title } : {}),
          members: people,
        };
      },
    });
  }

  /** A person (or bot) by id, with the name Slack shows. */
  async user(id: string): Promise<Participant> {
    return this.#users.get(id).catch((error: unknown) => {
      this.logger.debug({ user: id, err: String(error) }, "slack: users.info failed; using the id as the name");
      return { id };
    });
  }

  /** The name of a user already looked up, without a request. */
  knownName(id: string): string | undefined {
    return this.#users.peek(id)?.name;
  }

  /** Title and members of a conversation; for a direct message only that it is one. */
  async conversation(id: string): Promise<ConversationFacts> {
    return this.#conversations.get(id).catch((error: unknown) => {
      this.logger.debug({ conversation: id, err: String(error) }, "slack: conversations.info failed");
      return { id, isDirect: id.startsWith("D") };
    });
  }

  /** The name of a channel already looked up, without a request. */
  knownChannel(id: string): string | undefined {
    return this.#conversations.peek(id)?.name;
  }
}

/** The name Slack shows for a person: display name, else real name, else the handle. */
export function participant(id: string, user: SlackUser | undefined): Participant {
  const name = user?.profile?.display_name || user?.profile?.real_name || user?.real_name || user?.name;
  return { id, ...(name ? { name } : {}), ...(user?.is_bot ? { isBot: true } : {}) };
}
