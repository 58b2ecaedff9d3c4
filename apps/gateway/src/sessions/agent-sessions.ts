import type { StateStore } from "../state/index.js";
import { sessionsDir } from "../support/index.js";
import { SessionStore } from "./store.js";
import { TranscriptStore } from "./transcript.js";

/** One agent's session store and its transcripts. */
export interface AgentSessions {
  store: SessionStore;
  transcripts: TranscriptStore;
}

/** Each agent's sessions (on the state layer; the mirror in `<home>/agents/<id>/sessions`), opened once on first use. */
export class OpenedSessions {
  readonly #opened = new Map<string, Promise<AgentSessions>>();
  readonly #transcripts: TranscriptStore;

  constructor(
    private readonly home: string,
    private readonly state: StateStore,
  ) {
    this.#transcripts = new TranscriptStore(state);
  }

  /** The agent's sessions, opening them on first use (a function value: pass it as `sessionsOf`). */
  readonly of = (agentId: string): Promise<AgentSessions> => {
    let entry = this.#opened.get(agentId);
    if (!entry) {
      entry = SessionStore.open(this.state, agentId, sessionsDir(this.home, agentId)).then((store) => ({
        store,
        transcripts: this.#transcripts,
      }));
      this.#opened.set(agentId, entry);
    }
    return entry;
  };

  /** Commits every opened store and writes its mirror. */
  async flush(): Promise<void> {
    for (const pending of this.#opened.values()) await (await pending).store.flush();
  }

  /** Commits every opened store, writes its mirror and stops the mirror's worker. */
  async close(): Promise<void> {
    for (const pending of this.#opened.values()) await (await pending).store.close();
  }
}
