import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  CoalescedWriter,
  CorruptFileError,
  defaultStateWarning,
  readJsonFile,
  type StateWarningHandler,
  setCorruptFileAside,
  writeFileAtomic,
} from "@chorus/channel-kit/state";
import { ChorusError, type MessageRef, parseMessageRef } from "@chorus/core";

export interface MessageIndexOptions {
  /** Root directory; one file per conversation below it. */
  dir: string;
  /** References kept per conversation; the oldest are dropped beyond it. */
  perConversation?: number;
  /** Conversations held in memory; the least recently used is flushed and dropped beyond it. */
  maxCachedConversations?: number;
  /** Corrupt files set aside, failed background writes (default: a process warning). */
  onWarning?: StateWarningHandler;
}

/** What identifies one message across channels, accounts and conversations. */
export interface MessageLookup {
  channel: string;
  accountId: string;
  conversationId: string;
  messageId: string;
}

/** The JSON of one conversation's file. */
export interface ConversationRefsFile {
  conversationId: string;
  refs: MessageRef[];
}

interface Conversation {
  readonly cacheKey: string;
  readonly path: string;
  readonly conversationId: string;
  refs: Map<string, MessageRef>;
  loaded: boolean;
  ready: Promise<void>;
  writer: CoalescedWriter;
}

/** `<dir>/<channel>/<accountId>/<sha256(conversationId), first 32 hex>.json`. */
export function conversationRefsPath(dir: string, channel: string, accountId: string, conversationId: string): string {
  const hash = createHash("sha256").update(conversationId).digest("hex").slice(0, 32);
  return join(dir, pathSegment(channel), pathSegment(accountId), `${hash}.json`);
}

/**
 * The persisted, bounded index of the `MessageRef`s the agent saw, per conversation, so that
 * reacting to a message id still works after a restart (DESIGN §2.3).
 */
export class MessageIndex {
  private readonly dir: string;
  private readonly perConversation: number;
  private readonly maxCached: number;
  private readonly warn: StateWarningHandler;
  private readonly cache = new Map<string, Conversation>();
  private readonly evicting = new Map<string, Promise<void>>();

  constructor(options: MessageIndexOptions) {
    this.dir = options.dir;
    this.perConversation = positiveInteger("perConversation", options.perConversation ?? 1000);
    this.maxCached = positiveInteger("maxCachedConversations", options.maxCachedConversations ?? 500);
    this.warn = options.onWarning ?? defaultStateWarning;
  }

  /** Conversations held in memory now. */
  get cachedConversations(): number {
    return this.cache.size;
  }

  /** Remembers `ref` (replacing an earlier one with the same message id); written soon after. */
  put(ref: MessageRef): void {
    const valid = parseMessageRef(ref);
    const conversation = this.conversation(valid);
    conversation.refs.delete(valid.messageId);
    conversation.refs.set(valid.messageId, valid);
    if (conversation.loaded) this.trim(conversation);
    conversation.writer.changed();
  }

  /** The reference of a message seen earlier (also before a restart), or `undefined`. */
  async get(lookup: MessageLookup): Promise<MessageRef | undefined> {
    for (const field of ["channel", "accountId", "conversationId", "messageId"] as const) {
      if (typeof lookup[field] !== "string" || lookup[field] === "") {
        throw new ChorusError("E_INVALID_INPUT", `message lookup field ${field} must be a non-empty string`);
      }
    }
    const conversation = this.conversation(lookup);
    await conversation.ready;
    return conversation.refs.get(lookup.messageId);
  }

  /** Resolves when every reference put so far is on disk. */
  async flush(): Promise<void> {
    await Promise.all([...[...this.cache.values()].map((c) => c.writer.flush()), ...this.evicting.values()]);
  }

  private conversation(address: Omit<MessageLookup, "messageId">): Conversation {
    const cacheKey = `${address.channel}\u0000${address.accountId}\u0000${address.conversationId}`;
    const cached = this.cache.get(cacheKey);
    if (cached) {
      this.cache.delete(cacheKey);
      this.cache.set(cacheKey, cached);
      return cached;
    }
    const conversation = this.createConversation(cacheKey, address);
    this.cache.set(cacheKey, conversation);
    if (this.cache.size > this.maxCached) {
      const oldest = this.cache.values().next();
      if (!oldest.done) this.evict(oldest.value);
    }
    return conversation;
  }

  private createConversation(cacheKey: string, address: Omit<MessageLookup, "messageId">): Conversation {
    const path = conversationRefsPath(this.dir, address.channel, address.accountId, address.conversationId);
    const conversation: Conversation = {
      cacheKey,
      path,
      conversationId: address.conversationId,
      refs: new Map(),
      loaded: false,
      ready: Promise.resolve(),
      writer: new CoalescedWriter(
        async () => {
          await conversation.ready;
          const file: ConversationRefsFile = {
            conversationId: address.conversationId,
            refs: [...conversation.refs.values()],
          };
          await writeFileAtomic(path, JSON.stringify(file));
        },
        (error) => this.warn(`could not save message references to ${path}`, error),
      ),
    };
    // A conversation evicted a moment ago may still be writing its file: read it after that.
    const previousWrite = this.evicting.get(cacheKey);
    conversation.ready = (previousWrite ?? Promise.resolve()).then(() => this.load(conversation));
    conversation.ready.catch((error: unknown) => {
      if (this.cache.get(cacheKey) === conversation) this.cache.delete(cacheKey);
      this.warn(`could not load message references from ${path}; references put meanwhile are lost`, error);
    });
    return conversation;
  }

  private async load(conversation: Conversation): Promise<void> {
    const stored = await this.readStored(conversation);
    const merged = new Map<string, MessageRef>();
    for (const ref of stored) merged.set(ref.messageId, ref);
    for (const [messageId, ref] of conversation.refs) {
      merged.delete(messageId);
      merged.set(messageId, ref);
    }
    conversation.refs = merged;
    conversation.loaded = true;
    this.trim(conversation);
  }

  private async readStored(conversation: Conversation): Promise<MessageRef[]> {
    const { path } = conversation;
    let raw: unknown;
    try {
      raw = await readJsonFile<unknown>(path);
    } catch (error) {
      if (!(error instanceof CorruptFileError)) throw error;
      const aside = await setCorruptFileAside(path);
      this.warn(`message references in ${path} were corrupt; moved to ${aside} and started empty`, error);
      return [];
    }
    if (raw === undefined) return [];
    const file = raw as Partial<ConversationRefsFile>;
    if (typeof raw !== "object" || raw === null || file.conversationId !== conversation.conversationId) {
      const aside = await setCorruptFileAside(path);
      this.warn(
        `${path} does not hold the references of conversation ${conversation.conversationId}; moved to ${aside}`,
      );
      return [];
    }
    const refs: MessageRef[] = [];
    const problems: string[] = [];
    for (const [index, value] of (Array.isArray(file.refs) ? file.refs : []).entries()) {
      try {
        const ref = parseMessageRef(value);
        if (ref.conversationId !== conversation.conversationId) throw new Error("belongs to another conversation");
        refs.push(ref);
      } catch (error) {
        problems.push(`refs[${index}]: ${(error as Error).message}`);
      }
    }
    if (!Array.isArray(file.refs)) problems.push("refs is not an array");
    if (problems.length > 0) {
      const copy = await setCorruptFileAside(path, { keepOriginal: true });
      this.warn(`${path}: dropped invalid message references (${problems.join("; ")}); original kept at ${copy}`);
    }
    return refs;
  }

  private trim(conversation: Conversation): void {
    while (conversation.refs.size > this.perConversation) {
      const oldest = conversation.refs.keys().next();
      if (oldest.done) break;
      conversation.refs.delete(oldest.value);
    }
  }

  private evict(conversation: Conversation): void {
    this.cache.delete(conversation.cacheKey);
    const done: Promise<void> = conversation.writer
      .flush()
      .catch((error: unknown) =>
        this.warn(`could not save message references to ${conversation.path} before dropping them from memory`, error),
      )
      .finally(() => {
        if (this.evicting.get(conversation.cacheKey) === done) this.evicting.delete(conversation.cacheKey);
      });
    this.evicting.set(conversation.cacheKey, done);
  }
}

/** A channel or account id as one safe directory name (no separators, no `.`/`..`). */
function pathSegment(value: string): string {
  return encodeURIComponent(value).replace(/^\./, "%2E");
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new ChorusError("E_INVALID_INPUT", `MessageIndex ${name} must be a positive integer, got ${value}`);
  }
  return value;
}
