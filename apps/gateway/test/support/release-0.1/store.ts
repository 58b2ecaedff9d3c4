import { randomUUID } from "node:crypto";
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
import { ChorusError } from "@chorus/core";
import {
  assertSessionEntry,
  readSessionsFile,
  SESSIONS_FILE_VERSION,
  type SessionEntry,
  type SessionSettings,
  type SessionsFile,
  withSettings,
} from "../../../src/testing/index.js";

/** What `ensure` needs to create a session; the rest is generated (settings start empty). */
export type SessionInit = Pick<
  SessionEntry,
  "agentId" | "channel" | "accountId" | "conversationId" | "chatType" | "title" | "threadId"
>;

/** Fields `update` may change; `updatedAt` is set to now unless given. Settings change with `changeSettings`. */
export type SessionPatch = Partial<Omit<SessionEntry, "key" | "sessionId" | "createdAt" | "settings">>;

const NO_SETTINGS: SessionSettings = Object.freeze({});

export interface SessionStoreOptions {
  /** Failed background writes (default: a process warning); `flush()` also throws them. */
  onWarning?: StateWarningHandler;
  /** The clock, for tests. */
  now?: () => Date;
}

/**
 * The sessions of one agent, in `<dir>/sessions.json` (DESIGN §4): read once at open, kept in
 * memory, written atomically; updates made in the same tick are saved by one write.
 */
export class SessionStore {
  /** Problems found while opening (a corrupt file set aside, invalid entries dropped). */
  readonly warnings: readonly string[];
  readonly file: string;
  private readonly sessions: Map<string, SessionEntry>;
  private readonly writer: CoalescedWriter;
  private readonly now: () => Date;

  private constructor(
    file: string,
    sessions: Map<string, SessionEntry>,
    warnings: string[],
    options: SessionStoreOptions,
  ) {
    this.file = file;
    this.sessions = sessions;
    this.warnings = warnings;
    this.now = options.now ?? (() => new Date());
    const warn = options.onWarning ?? defaultStateWarning;
    this.writer = new CoalescedWriter(
      () => writeFileAtomic(this.file, this.serialize()),
      (error) => warn(`could not save sessions to ${this.file}`, error),
    );
  }

  /** Opens `<dir>/sessions.json`; a missing file is an empty store, a corrupt one is set aside with a warning. */
  static async open(dir: string, options: SessionStoreOptions = {}): Promise<SessionStore> {
    const file = join(dir, "sessions.json");
    const warnings: string[] = [];
    const now = options.now ?? (() => new Date());
    let raw: unknown;
    try {
      raw = await readJsonFile<unknown>(file);
    } catch (error) {
      if (!(error instanceof CorruptFileError)) throw error;
      const aside = await setCorruptFileAside(file, { now: now() });
      warnings.push(`${error.message}; moved it to ${aside} and started with no sessions`);
    }
    const sessions = new Map<string, SessionEntry>();
    if (raw !== undefined) {
      const read = readSessionsFile(file, raw);
      if (read.fatal !== undefined) {
        const aside = await setCorruptFileAside(file, { now: now() });
        warnings.push(`${read.fatal}; moved it to ${aside} and started with no sessions`);
      } else {
        for (const entry of read.entries) sessions.set(entry.key, freeze(entry));
        if (read.problems.length > 0) {
          const copy = await setCorruptFileAside(file, { keepOriginal: true, now: now() });
          warnings.push(`${file}: dropped invalid sessions (${read.problems.join("; ")}); original kept at ${copy}`);
        }
      }
    }
    for (const warning of warnings) (options.onWarning ?? defaultStateWarning)(warning);
    return new SessionStore(file, sessions, warnings, options);
  }

  /** Number of sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /** The session under `key`, if there is one. */
  get(key: string): SessionEntry | undefined {
    return this.sessions.get(key);
  }

  /** Every session, in creation order. */
  entries(): SessionEntry[] {
    return [...this.sessions.values()];
  }

  /** The session under `key`, created (with a new random session id) when there is none yet. */
  ensure(key: string, init: SessionInit): SessionEntry {
    const existing = this.sessions.get(key);
    if (existing) return existing;
    const at = this.now().toISOString();
    const entry: SessionEntry = {
      key,
      sessionId: randomUUID(),
      agentId: init.agentId,
      channel: init.channel,
      accountId: init.accountId,
      conversationId: init.conversationId,
      chatType: init.chatType,
      ...(init.title === undefined ? {} : { title: init.title }),
      ...(init.threadId === undefined ? {} : { threadId: init.threadId }),
      createdAt: at,
      updatedAt: at,
      turns: 0,
      settings: {},
    };
    return this.store(entry);
  }

  /** Changes a session (`patch`, or a function of the current entry returning one) and returns the result. */
  update(key: string, patch: SessionPatch | ((entry: SessionEntry) => SessionPatch)): SessionEntry {
    const current = this.require(key);
    const changes = typeof patch === "function" ? patch(current) : patch;
    const {
      key: _key,
      sessionId: _id,
      createdAt: _created,
      settings: _settings,
      ...allowed
    } = changes as Partial<SessionEntry>;
    return this.store({ ...current, ...allowed, updatedAt: allowed.updatedAt ?? this.now().toISOString() });
  }

  /** A session's settings; none for a session that does not exist yet. */
  settings(key: string): SessionSettings {
    return this.sessions.get(key)?.settings ?? NO_SETTINGS;
  }

  /**
   * The one way to change a session's settings (`changes` set to `undefined` remove a setting);
   * with `init`, a session that does not exist yet is created first.
   */
  changeSettings(key: string, changes: SessionSettings, init?: SessionInit): SessionEntry {
    if (init) this.ensure(key, init);
    const current = this.require(key);
    return this.store({
      ...current,
      settings: withSettings(current.settings, changes),
      updatedAt: this.now().toISOString(),
    });
  }

  /** Starts the session over (`/new`, `/reset`): a new session id and no turns; settings stay. */
  reset(key: string): SessionEntry {
    const current = this.require(key);
    return this.store({ ...current, sessionId: randomUUID(), turns: 0, updatedAt: this.now().toISOString() });
  }

  /** Forgets a session; true when there was one. */
  delete(key: string): boolean {
    const existed = this.sessions.delete(key);
    if (existed) this.writer.changed();
    return existed;
  }

  /** Resolves when every change made so far is on disk. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  private require(key: string): SessionEntry {
    const current = this.sessions.get(key);
    if (!current) {
      throw new ChorusError("E_INVALID_INPUT", `no session "${key}" in ${this.file}`, {
        hint: "create it with ensure() first",
      });
    }
    return current;
  }

  private store(entry: SessionEntry): SessionEntry {
    assertSessionEntry(entry);
    const frozen = freeze(entry);
    this.sessions.set(entry.key, frozen);
    this.writer.changed();
    return frozen;
  }

  private serialize(): string {
    const file: SessionsFile = { version: SESSIONS_FILE_VERSION, sessions: Object.fromEntries(this.sessions) };
    return `${JSON.stringify(file)}\n`;
  }
}

/** Entries are shared, never copied: freezing them makes a change outside `update` fail loudly. */
function freeze(entry: SessionEntry): SessionEntry {
  Object.freeze(entry.settings);
  return Object.freeze(entry);
}
