import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { defaultStateWarning, type StateWarningHandler } from "@chorus/channel-kit/state";
import { ChorusError } from "@chorus/core";
import type { SessionRow, Sql, StateStore } from "../state/index.js";
import { copyWith } from "../support/index.js";
import { assertSessionEntry, checkEntry, type SessionEntry } from "./entry.js";
import { SessionsMirror } from "./mirror.js";
import { MirrorCopy } from "./mirror-copy.js";
import { type SessionSettings, type SettingsChange, withSettings } from "./settings.js";

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
 * The sessions of one agent (DESIGN §4) on the state layer: read once at open, kept in memory,
 * each change written as that one row (never the whole store) — in the turn's own transaction
 * when a turn commits (`takeChanges`), else in the next tick. `<dir>/sessions.json` mirrors them
 * (`mirror.ts`).
 */
export class SessionStore {
  /** Problems found while opening (invalid entries skipped). */
  readonly warnings: readonly string[];
  /** The `sessions.json` mirror. */
  readonly file: string;
  private readonly sessions: Map<string, SessionEntry>;
  private readonly dirty = new Set<string>();
  private readonly deleted = new Set<string>();
  private writing: Promise<void> | undefined;
  private readonly mirror: SessionsMirror;
  private readonly now: () => Date;
  private readonly warn: StateWarningHandler;

  private constructor(
    private readonly state: StateStore,
    readonly agentId: string,
    dir: string,
    sessions: Map<string, SessionEntry>,
    warnings: string[],
    options: SessionStoreOptions,
    mirrorCopy: Uint8Array,
  ) {
    this.file = join(dir, "sessions.json");
    this.sessions = sessions;
    this.warnings = warnings;
    this.now = options.now ?? (() => new Date());
    this.warn = options.onWarning ?? defaultStateWarning;
    this.mirror = new SessionsMirror(this.file, this.sessions, this.warn, mirrorCopy);
  }

  /** Opens one agent's sessions from the state layer; `dir` is where the `sessions.json` mirror goes. */
  static async open(
    state: StateStore,
    agentId: string,
    dir: string,
    options: SessionStoreOptions = {},
  ): Promise<SessionStore> {
    const warnings: string[] = [];
    const sessions = new Map<string, SessionEntry>();
    const mirrorCopy = new MirrorCopy();
    for (const text of await state.sessions.textsOfAgent(agentId)) {
      const raw = JSON.parse(text) as Record<string, unknown>;
      const checked = checkEntry(raw);
      if ("entry" in checked) sessions.set(checked.entry.key, freeze(mirrorCopy.addStored(checked.entry, raw, text)));
      else warnings.push(`session ${String(raw.key)} in the state database was skipped: ${checked.problem}`);
    }
    for (const warning of warnings) (options.onWarning ?? defaultStateWarning)(warning);
    return new SessionStore(state, agentId, dir, sessions, warnings, options, mirrorCopy.bytes());
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
  changeSettings(key: string, changes: SettingsChange, init?: SessionInit): SessionEntry {
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
    if (existed) {
      this.mirror.changed(key);
      this.dirty.delete(key);
      this.deleted.add(key);
      this.schedule();
    }
    return existed;
  }

  /** Resolves when every change made so far is committed (and the mirror written). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.dirty.size > 0 || this.deleted.size > 0) await this.write();
    await this.mirror.flush();
  }

  /** Flushes (see `flush`) and stops the mirror's worker; a later change starts it again. */
  async close(): Promise<void> {
    await this.flush();
    await this.mirror.close();
  }

  /**
   * The session's change not yet written, taken out of the background write: the caller commits
   * it in its own transaction (a turn's result, a command's reply).
   */
  takeChanges(key: string): SessionRow[] {
    if (!this.dirty.delete(key)) return [];
    const entry = this.sessions.get(key);
    return entry ? [rowOf(entry)] : [];
  }

  /** What `update` would make of the session, without changing it (committed by the caller, then `committed`). */
  preview(key: string, patch: SessionPatch): SessionEntry {
    const current = this.require(key);
    const next = { ...current, ...patch, updatedAt: patch.updatedAt ?? this.now().toISOString() };
    assertSessionEntry(next);
    return next;
  }

  /** An entry the caller committed itself: kept in memory, mirrored, not written again. */
  committed(entry: SessionEntry): SessionEntry {
    return this.keep(freeze(copyWith(entry, {})));
  }

  /** Reads one session again from the database (another gateway may have changed it). */
  async refresh(key: string): Promise<void> {
    if (this.dirty.has(key)) return;
    const raw = await this.state.sessions.get(key);
    // Mostly what this gateway committed last: kept as it is, without checking it again.
    if (raw && isDeepStrictEqual(this.sessions.get(key), raw)) return;
    const checked = raw && checkEntry(raw);
    if (checked && "entry" in checked) this.keep(freeze(checked.entry));
  }

  /** Reads every session of the agent again (other gateways may have created or changed some); resolves with them all. */
  async refreshAll(): Promise<SessionEntry[]> {
    for (const raw of await this.state.sessions.ofAgent(this.agentId)) {
      if (this.dirty.has(String(raw.key)) || isDeepStrictEqual(this.sessions.get(String(raw.key)), raw)) continue;
      const checked = checkEntry(raw);
      if ("entry" in checked) this.keep(freeze(checked.entry));
    }
    return this.entries();
  }

  private schedule(): void {
    // A failed background write is reported (warn) and kept dirty: the next write or flush tries again.
    this.writing ??= new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.write())
      .catch(() => undefined);
  }

  private async write(): Promise<void> {
    const keys = [...this.dirty];
    const gone = [...this.deleted];
    this.dirty.clear();
    this.deleted.clear();
    const rows = keys.flatMap((key) => {
      const entry = this.sessions.get(key);
      return entry ? [rowOf(entry)] : [];
    });
    try {
      await this.state.db.tx(async (sql: Sql) => {
        await this.state.sessions.save(sql, rows, Date.now());
        await this.state.sessions.delete(sql, gone);
      });
    } catch (error) {
      for (const key of keys) this.dirty.add(key);
      for (const key of gone) this.deleted.add(key);
      this.warn("could not save sessions to the state database", error);
      throw error;
    } finally {
      this.writing = undefined;
    }
  }

  private require(key: string): SessionEntry {
    const current = this.sessions.get(key);
    if (!current) {
      throw new ChorusError("E_INVALID_INPUT", `no session "${key}" of agent ${this.agentId}`, {
        hint: "create it with ensure() first",
      });
    }
    return current;
  }

  private store(entry: SessionEntry): SessionEntry {
    assertSessionEntry(entry);
    const frozen = this.keep(freeze(entry));
    this.deleted.delete(entry.key);
    this.dirty.add(entry.key);
    this.schedule();
    return frozen;
  }

  /** Keeps `entry` in memory and in the mirror. */
  private keep(entry: SessionEntry): SessionEntry {
    this.sessions.set(entry.key, entry);
    this.mirror.changed(entry.key);
    return entry;
  }
}

/** A session entry as the state layer keeps it. */
export function rowOf(entry: SessionEntry): SessionRow {
  return { key: entry.key, agentId: entry.agentId, entry: entry as unknown as Record<string, unknown> };
}

/** Entries are shared, never copied: freezing them makes a change outside `update` fail loudly. */
function freeze(entry: SessionEntry): SessionEntry {
  Object.freeze(entry.settings);
  return Object.freeze(entry);
}
