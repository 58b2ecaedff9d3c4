import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

const FILE = "reactions.json";
/** Messages remembered; the oldest are forgotten first. */
const LIMIT = 5_000;

/**
 * The reactions the bot has set, per `<token>/<messageId>`, persisted in `stateDir`: Talk has no
 * list endpoint for bots, so this record is the only way to know what the bot holds.
 */
export class ReactionStore {
  #byMessage = new Map<string, string[]>();
  /** Writes run one after another, each with the record as it was when it was asked for. */
  #writing: Promise<void> = Promise.resolve();

  constructor(private readonly stateDir: string) {}

  /** Reads the record an earlier run left. */
  async load(): Promise<void> {
    try {
      const saved = JSON.parse(await readFile(join(this.stateDir, FILE), "utf8")) as Record<string, unknown>;
      for (const [key, value] of Object.entries(saved)) {
        if (Array.isArray(value))
          this.#byMessage.set(
            key,
            value.filter((e): e is string => typeof e === "string"),
          );
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }

  /** The bot's reactions on a message, oldest first. */
  get(token: string, messageId: string): string[] {
    return [...(this.#byMessage.get(`${token}/${messageId}`) ?? [])];
  }

  /** Records a reaction the platform confirmed, and persists the record. */
  async add(token: string, messageId: string, emoji: string): Promise<void> {
    const key = `${token}/${messageId}`;
    const list = this.#byMessage.get(key) ?? [];
    if (list.includes(emoji)) return;
    this.#byMessage.delete(key);
    this.#byMessage.set(key, [...list, emoji]);
    if (this.#byMessage.size > LIMIT) this.#byMessage.delete(this.#byMessage.keys().next().value as string);
    const text = JSON.stringify(Object.fromEntries(this.#byMessage));
    const write = async () => {
      await mkdir(this.stateDir, { recursive: true });
      const path = join(this.stateDir, FILE);
      await writeFile(`${path}.tmp`, text);
      await rename(`${path}.tmp`, path);
    };
    const written = this.#writing.then(write, write);
    this.#writing = written.catch(() => undefined);
    await written;
  }
}
