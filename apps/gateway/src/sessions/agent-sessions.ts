import { sessionsDir } from "../home.js";
import { SessionStore } from "./store.js";
import { TranscriptStore } from "./transcript.js";

/** One agent's session store and its transcripts. */
export interface AgentSessions {
  store: SessionStore;
  transcripts: TranscriptStore;
}

/** Each agent's sessions (`<home>/agents/<id>/sessions`), opened once on first use. */
export class OpenedSessions {
  readonly #opened = new Map<string, Promise<AgentSessions>>();

  constructor(private readonly home: string) {}

  /** The agent's sessions, opening them on first use (a function value: pass it as `sessionsOf`). */
  readonly of = (agentId: string): Promise<AgentSessions> => {
    let entry = this.#opened.get(agentId);
    if (!entry) {
      const dir = sessionsDir(this.home, agentId);
      entry = SessionStore.open(dir).then((store) => ({ store, transcripts: new TranscriptStore(dir) }));
      this.#opened.set(agentId, entry);
    }
    return entry;
  };

  /** Writes every opened store to disk. */
  async flush(): Promise<void> {
    for (const pending of this.#opened.values()) await (await pending).store.flush();
  }
}
