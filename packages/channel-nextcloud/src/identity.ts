import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MessageRef } from "@chorus/core";
import { botActorId } from "./signing.js";

/** Who this instance is: what every `MessageRef`, own-echo and mention check needs. */
export interface Identity {
  readonly channel: string;
  readonly accountId: string;
  /** `bots/bot-<sha1 of the installed URL>`, the actor Talk shows the bot's messages and reactions as. */
  readonly botId: string;
  /** The bot's display name, when configured or learned from a `Join`. */
  readonly botName: string | undefined;
}

const FILE = "identity.json";

/**
 * The bot's identity for one account. Talk names the bot `bots/bot-<sha1(url)>`, `url` being the
 * webhook URL given to `occ talk:bot:install`, so it is computed from that URL; a `Join`/`Leave`
 * hook states it outright, and what it says wins and is persisted in `stateDir`.
 */
export class IdentityStore {
  #botId: string;
  #botName: string | undefined;

  constructor(
    private readonly base: { channel: string; accountId: string; webhookUrl: string; botName?: string | undefined },
    private readonly stateDir: string,
  ) {
    this.#botId = botActorId(base.webhookUrl);
    this.#botName = base.botName;
  }

  /** Reads what an earlier `Join` taught, if anything. */
  async load(): Promise<void> {
    try {
      const saved = JSON.parse(await readFile(join(this.stateDir, FILE), "utf8")) as {
        botId?: unknown;
        name?: unknown;
      };
      if (typeof saved.botId === "string" && saved.botId.startsWith("bots/")) this.#botId = saved.botId;
      if (this.base.botName === undefined && typeof saved.name === "string" && saved.name !== "") {
        this.#botName = saved.name;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }

  /** Adopts the id and name a `Join`/`Leave` hook states; true when they differ from what we had. */
  async learn(botId: string, name: string): Promise<boolean> {
    const changed = botId !== this.#botId || (this.base.botName === undefined && name !== "" && name !== this.#botName);
    if (!changed) return false;
    this.#botId = botId;
    if (this.base.botName === undefined && name !== "") this.#botName = name;
    await mkdir(this.stateDir, { recursive: true });
    const path = join(this.stateDir, FILE);
    await writeFile(`${path}.tmp`, JSON.stringify({ botId: this.#botId, name: this.#botName ?? "" }));
    await rename(`${path}.tmp`, path);
    return true;
  }

  /** The identity as of now. */
  current(): Identity {
    return { ...this.base, botId: this.#botId, botName: this.#botName };
  }
}

/**
 * The `MessageRef` of a Talk message (DESIGN §2.3): conversation token + numeric message id.
 * Messages the bot sent have no id (Talk answers a bot's send with an empty 201), so their ref
 * carries the `referenceId` instead and says so in `data.pending`.
 */
export function talkMessageRef(
  message: { id: string; token: string; fromBot: boolean; referenceId?: string },
  who: Identity,
): MessageRef {
  return {
    channel: who.channel,
    accountId: who.accountId,
    conversationId: message.token,
    messageId: message.id,
    fromBot: message.fromBot,
    ...(message.referenceId ? { data: { referenceId: message.referenceId, pending: true } } : {}),
  };
}
