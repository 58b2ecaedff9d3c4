import type { FakeBot } from "@chorus/channel-nextcloud/testing";
import { type FakeTelegram, mentionEntities } from "@chorus/channel-telegram/testing";
import { sampleMedium } from "@chorus/testkit";
import { noisyPng } from "../../test/support/media-files.js";
import { type AccountFakes, ANN, BOB, chatter, groupOf, roomOf, TELEGRAM_BOTS } from "./accounts-world.js";

// Mixed traffic at steady rates across the 120 accounts of `startAccountFakes`: group chatter that
// triggers nothing, DMs and mentions that each start a turn (the offline demo agent reacts 👍 and
// answers), photos and voice notes in DMs (downloaded into the media store, named in the turn),
// and people's reactions (notes for a session's next turn).

/** Messages a second of each kind, across all accounts. */
export const RATES = {
  telegramChatter: 150,
  talkChatter: 30,
  dmText: 4,
  groupMention: 2,
  photo: 1,
  voiceNote: 1,
  telegramReaction: 2,
  talkReaction: 2,
} as const;

export type Kind = keyof typeof RATES;

/** The Telegram accounts whose DMs get the photos and voice notes; the others' DMs get text. */
const MEDIA_ACCOUNTS = 20;
const TICK_MS = 100;
const voice = sampleMedium("voice");

/** A person in a DM with Telegram bot `i` (a private chat's id is the person's). */
const dmPerson = (i: number) => ({ id: 10_000 + i, is_bot: false as const, first_name: `Person ${i}` });

/** What the traffic sent so far, and how the turns it started were answered. */
export interface TrafficCounts {
  sent: Record<Kind, number>;
  /** Messages sent that start a turn (DMs, mentions, media), and the bot's replies to them. */
  triggers: number;
  replies: number;
  /** Bot messages in a chat with no turn outstanding (a turn answered twice, or a message merged into another's turn). */
  unexpectedReplies: number;
  /** Turns started and not answered yet. */
  outstanding: number;
  /** Sent messages of every kind: each must become one inbox row. */
  inbound: number;
}

/** Steady mixed traffic, run with `runFor`, counted with `counts`. */
export interface SoakTraffic {
  /** Sends at the `RATES` for `ms`, then stops sending; throws at once if a Talk webhook failed. */
  runFor(ms: number): Promise<void>;
  /** Resolves once every Talk webhook sent was answered. */
  settled(): Promise<void>;
  counts(): TrafficCounts;
}

/**
 * Drives `fakes` (the Talk bots installed as `bots`). A turn is started only in a chat with none
 * outstanding: two messages in one turn would be answered once, and every reply must be counted.
 */
export function createSoakTraffic(fakes: AccountFakes, bots: FakeBot[]): SoakTraffic {
  const sent = Object.fromEntries(Object.keys(RATES).map((kind) => [kind, 0])) as Record<Kind, number>;
  const outstanding = new Set<string>();
  const replyCounts = { replies: 0, unexpected: 0 };
  /** The bot's replies in DMs no one reacted to yet, as `[account, chat, message]`. */
  const unreacted: [number, number, number][] = [];
  /** People's Talk messages no one reacted to yet, as `[account, message id]`. */
  const talkMessages: [number, number][] = [];
  const deliveries = new Set<Promise<void>>();
  let failure: Error | undefined;

  for (const [i, fake] of fakes.telegrams.entries()) {
    fake.addChat({ id: dmPerson(i).id, type: "private", first_name: dmPerson(i).first_name });
    fake.state.hooks.botMessage = (message) => {
      const chat = message.chat.id;
      if (!outstanding.delete(`${i}:${chat}`)) replyCounts.unexpected++;
      else replyCounts.replies++;
      if (chat > 0) unreacted.push([i, chat, message.message_id]);
      if (unreacted.length > 1_000) unreacted.shift();
    };
  }

  const deliverTalk = (i: number, hook: object) => {
    const delivery = fakes.deliverTalk(i, bots[i] as FakeBot, hook).catch((error: Error) => {
      failure ??= error;
    });
    deliveries.add(delivery);
    void delivery.finally(() => deliveries.delete(delivery));
  };

  /** Starts a turn in the first free chat of `accounts` from `from` on (round robin); false when all are busy. */
  const cursors = new Map<Kind, number>();
  const startTurn = (
    kind: Kind,
    accounts: number[],
    chatOf: (i: number) => number,
    send: (fake: FakeTelegram, i: number) => void,
  ) => {
    const from = cursors.get(kind) ?? 0;
    for (let step = 0; step < accounts.length; step++) {
      const i = accounts[(from + step) % accounts.length] as number;
      const key = `${i}:${chatOf(i)}`;
      if (outstanding.has(key)) continue;
      outstanding.add(key);
      send(fakes.telegrams[i] as FakeTelegram, i);
      cursors.set(kind, (from + step + 1) % accounts.length);
      return true;
    }
    return false;
  };

  const mediaAccounts = Array.from({ length: MEDIA_ACCOUNTS }, (_, i) => i);
  const textAccounts = Array.from({ length: TELEGRAM_BOTS - MEDIA_ACCOUNTS }, (_, i) => MEDIA_ACCOUNTS + i);
  const allTelegram = Array.from({ length: TELEGRAM_BOTS }, (_, i) => i);
  const dm = (i: number) => dmPerson(i).id;

  /** Sends the `n`th message of `kind`; false when it cannot go yet (every chat busy, nothing to react to). */
  const senders: Record<Kind, (n: number) => boolean> = {
    telegramChatter(n) {
      const i = n % TELEGRAM_BOTS;
      fakes.telegrams[i]?.userSends({ chatId: groupOf(i), from: ANN, text: chatter(n) });
      return true;
    },
    talkChatter(n) {
      const i = n % bots.length;
      const hook = fakes.talk.userSends({ token: roomOf(i), user: BOB, message: chatter(n) });
      talkMessages.push([i, Number(hook.object.id)]);
      if (talkMessages.length > 1_000) talkMessages.shift();
      deliverTalk(i, hook);
      return true;
    },
    dmText: (n) =>
      startTurn("dmText", textAccounts, dm, (fake, i) =>
        fake.userSends({ chatId: dm(i), from: dmPerson(i), text: `could you remind me about ${chatter(n)}` }),
      ),
    groupMention: (n) =>
      startTurn("groupMention", allTelegram, groupOf, (fake, i) => {
        const text = `@${fake.bot.username} what do you think of ${chatter(n)}`;
        fake.userSends({ chatId: groupOf(i), from: ANN, text, entities: mentionEntities(text) });
      }),
    photo: (n) =>
      startTurn("photo", mediaAccounts, dm, (fake, i) =>
        fake.userSendsMedium({
          chatId: dm(i),
          from: dmPerson(i),
          // ~12 KB of pixels that do not compress, different each time.
          sample: { kind: "image", bytes: noisyPng(64), mime: "image/png", caption: `photo #${n}` },
        }),
      ),
    voiceNote: () =>
      startTurn("voiceNote", mediaAccounts, dm, (fake, i) =>
        fake.userSendsMedium({
          chatId: dm(i),
          from: dmPerson(i),
          sample: { kind: "voice", bytes: voice.bytes, mime: voice.mime },
          duration: 2,
        }),
      ),
    telegramReaction() {
      const reply = unreacted.shift();
      if (!reply) return false;
      const [i, chat, message] = reply;
      fakes.telegrams[i]?.userReacts(chat, message, dmPerson(i), ["❤"]);
      return true;
    },
    talkReaction() {
      const target = talkMessages.shift();
      if (!target) return false;
      const [i, message] = target;
      deliverTalk(i, fakes.talk.userReacts(message, BOB, "👍"));
      return true;
    },
  };

  /** Sends what is due of every kind `elapsedMs` after `base` was sent: the rate times the time, less what went since. */
  const sendDue = (base: Record<Kind, number>, elapsedMs: number) => {
    for (const kind of Object.keys(RATES) as Kind[]) {
      const due = base[kind] + Math.floor((RATES[kind] * elapsedMs) / 1000);
      while (sent[kind] < due && senders[kind](sent[kind])) sent[kind]++;
    }
  };

  return {
    async runFor(ms) {
      const from = performance.now();
      const base = { ...sent };
      while (performance.now() - from < ms) {
        if (failure) throw failure;
        sendDue(base, performance.now() - from);
        await new Promise((resolve) => setTimeout(resolve, TICK_MS));
      }
      sendDue(base, ms);
    },
    async settled() {
      while (deliveries.size > 0) await Promise.all([...deliveries]);
      if (failure) throw failure;
    },
    counts() {
      const triggers = sent.dmText + sent.groupMention + sent.photo + sent.voiceNote;
      return {
        sent: { ...sent },
        triggers,
        replies: replyCounts.replies,
        unexpectedReplies: replyCounts.unexpected,
        outstanding: outstanding.size,
        inbound: Object.values(sent).reduce((sum, n) => sum + n, 0),
      };
    },
  };
}
