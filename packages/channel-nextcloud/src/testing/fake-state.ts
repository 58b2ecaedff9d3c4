import { createHash } from "node:crypto";
import { FakeFiles } from "./fake-files.js";

/** A person in the fake Talk (`users/<id>` actor). */
export interface FakeUser {
  id: string;
  name: string;
  /** Talk's participant type in the conversation (1 owner, 2 moderator, 3 user, …); 3 when absent. */
  participantType?: number;
}

/** A bot as `occ talk:bot:install` creates it. */
export interface FakeBot {
  /** The numeric bot id `occ talk:bot:list` shows. */
  id: number;
  name: string;
  secret: string;
  url: string;
  /** `webhook`, `response`, `reaction` (a subset). */
  features: string[];
  /** `bots/bot-<sha1(url)>`. */
  actorId: string;
  /**
   * Deliveries that failed, as Talk counts them (`BotServer::setErrorCount`): an answer other
   * than 200 or 202, or none within 5 s. Talk does nothing else about them: it never retries.
   */
  errorCount: number;
  /** Why the last delivery failed (`UnexpectedStatusCode: 503`, or the exception), as Talk records it. */
  lastErrorMessage?: string;
}

/** A conversation; `name` of a one-to-one is the JSON list of its two user ids, as Talk stores it. */
export interface FakeRoom {
  token: string;
  name: string;
  type: "group" | "one2one";
  /** Bot ids enabled here (`occ talk:bot:setup`). */
  bots: number[];
  /** User ids of the participants (who may share files here, and see what is shared). */
  participants: string[];
}

/** A stored chat message. */
export interface FakeMessage {
  id: number;
  token: string;
  /** `users/ada`, `bots/bot-…`. */
  actorId: string;
  actorName: string;
  message: string;
  parameters: Record<string, unknown>;
  replyTo?: number;
  referenceId?: string;
  silent?: boolean;
  /** `voice-message` for a voice message (`talkMetaData.messageType`). */
  messageType?: string;
  /** The shared file this message shows (`file_shared`). */
  fileId?: number;
  /** The caption the file was shared with (then also `message`). */
  caption?: string;
}

/** Everything the fake Talk holds, and the only code that changes it. */
export class FakeTalkState {
  readonly users = new Map<string, FakeUser>();
  readonly bots: FakeBot[] = [];
  readonly rooms = new Map<string, FakeRoom>();
  readonly messages = new Map<number, FakeMessage>();
  /** Reactions per message id: actor id → emoji, in the order they were made. */
  readonly reactions = new Map<number, { actorId: string; emoji: string }[]>();
  /** Accounts, their files, and files shared with conversations. */
  readonly files = new FakeFiles();
  #nextMessage = 1000;

  installBot(input: { name: string; secret: string; url: string; features?: string[] }): FakeBot {
    const bot: FakeBot = {
      id: this.bots.length + 1,
      name: input.name,
      secret: input.secret,
      url: input.url,
      features: input.features ?? ["webhook", "response", "reaction"],
      actorId: `bots/bot-${createHash("sha1").update(input.url).digest("hex")}`,
      errorCount: 0,
    };
    this.bots.push(bot);
    return bot;
  }

  /** Bots enabled in a room that have `feature`. */
  botsIn(token: string, feature: string): FakeBot[] {
    const room = this.rooms.get(token);
    return this.bots.filter((b) => room?.bots.includes(b.id) && b.features.includes(feature));
  }

  postMessage(input: Omit<FakeMessage, "id">): FakeMessage {
    const message: FakeMessage = { ...input, id: this.#nextMessage++ };
    this.messages.set(message.id, message);
    return message;
  }

  /** Adds a reaction; false when this actor already has exactly this one. */
  addReaction(messageId: number, actorId: string, emoji: string): boolean {
    const list = this.reactions.get(messageId) ?? [];
    if (list.some((r) => r.actorId === actorId && r.emoji === emoji)) return false;
    this.reactions.set(messageId, [...list, { actorId, emoji }]);
    return true;
  }

  /** Removes a reaction; false when it was not there. */
  removeReaction(messageId: number, actorId: string, emoji: string): boolean {
    const list = this.reactions.get(messageId) ?? [];
    const kept = list.filter((r) => !(r.actorId === actorId && r.emoji === emoji));
    this.reactions.set(messageId, kept);
    return kept.length !== list.length;
  }

  /** Tokens of the conversations `user` takes part in. */
  roomsOf(user: string): string[] {
    return [...this.rooms.values()].filter((room) => room.participants.includes(user)).map((room) => room.token);
  }

  reactionsBy(messageId: number, actorId: string): string[] {
    return (this.reactions.get(messageId) ?? []).filter((r) => r.actorId === actorId).map((r) => r.emoji);
  }
}
