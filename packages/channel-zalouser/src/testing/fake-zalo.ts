import type { ChannelStore } from "@chorus/core";
import { createFakeServer, type FakeServer, outage, type PlatformFault } from "@chorus/testkit";
import { writeSession, type ZaloSession } from "../session.js";
import { addApiRoutes, ICON_TYPES } from "./api-routes.js";
import { FakeListener } from "./listener.js";
import { addMediaRoutes } from "./media-routes.js";
import { FakeMediaStore } from "./media-store.js";
import { wireMessage, wireReaction } from "./messages.js";
import { type PersonMedium, type PersonMessage, personMedium } from "./person-media.js";
import { FakeQrLogin } from "./qr-routes.js";
import { addSessionRoutes, newSession } from "./session-routes.js";
import { type FakeGroup, type FakeMessage, type FakeUser, FakeZaloState } from "./state.js";
import { addUploadRoutes, DEFAULT_SHAREFILE, type FakeShareFile } from "./upload-routes.js";
import type { EventEncoding } from "./wire.js";

export interface FakeZaloOptions {
  /** The linked account (the bot): a numeric Zalo uid and its display name. */
  bot?: FakeUser;
  /** The listener's `ping_interval`. */
  pingIntervalMs?: number;
  /** The file limits `getServerInfo` hands out and the fake keeps (small ones keep tests fast). */
  sharefile?: Partial<FakeShareFile>;
  /** How long after the last chunk of a file Zalo's listener says it is stored (`file_done`). */
  fileDoneDelayMs?: number;
}

const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

/**
 * A fake Zalo on 127.0.0.1 that drives the real, unmodified zca-js: the QR login, the login pair
 * with its key derivation, the service map, the AES-encrypted API and the listener WebSocket.
 * Point the channel at it with `apiBase: fake.url` (`fake.config()`).
 */
export function createFakeZalo(options: FakeZaloOptions = {}) {
  const bot = options.bot ?? { id: "2153466178471249562", name: "Chorus Bot" };
  const state = new FakeZaloState(bot);
  const server: FakeServer = createFakeServer();
  const problems: string[] = [];
  let logins = 0;
  let pingIntervalMs = options.pingIntervalMs ?? 20_000;
  const sharefile: FakeShareFile = { ...DEFAULT_SHAREFILE, ...options.sharefile };
  const listener = new FakeListener(state, server);
  const qr = new FakeQrLogin(state, server);
  const media = new FakeMediaStore(server);
  addSessionRoutes(server, {
    state,
    pingIntervalMs: () => pingIntervalMs,
    sharefile: () => sharefile,
    problem: (text) => problems.push(text),
    loggedIn: () => {
      logins += 1;
    },
  });
  const deliverMessage = (message: FakeMessage, encoding?: EventEncoding) =>
    listener.send(
      message.kind === "group" ? 521 : 501,
      { [message.kind === "group" ? "groupMsgs" : "msgs"]: [wireMessage(state, message)] },
      encoding,
    );
  const deliverReaction = (target: FakeMessage, uid: string, icon: string, rType: number) => {
    const item = wireReaction(state, target, uid, icon, rType);
    return listener.send(612, {
      reacts: target.kind === "group" ? [] : [item],
      reactGroups: target.kind === "group" ? [item] : [],
      version: 1,
    });
  };
  addApiRoutes(server, {
    state,
    problem: (text) => problems.push(text),
    echoMessage: (message) => void deliverMessage(message),
    echoReaction: (message, icon, rType) => void deliverReaction(message, bot.id, icon, rType),
  });
  const uploads = addUploadRoutes(server, {
    state,
    media,
    problem: (text) => problems.push(text),
    sharefile: () => sharefile,
    fileDone: (fileId, url) => {
      const control = { content: { act_type: "file_done", fileId: Number(fileId), data: { url } } };
      setTimeout(() => void listener.send(601, { controls: [control] }), options.fileDoneDelayMs ?? 50).unref();
    },
  });
  addMediaRoutes(server, {
    state,
    media,
    uploads,
    problem: (text) => problems.push(text),
    echoMessage: (message) => void deliverMessage(message),
  });
  const messageOf = (msgId: string) => {
    const message = state.messages.get(msgId);
    if (!message) throw new Error(`fake Zalo: no message ${msgId}`);
    return message;
  };
  let nextClientId = Date.now();

  return {
    server,
    state,
    listener,
    qr,
    bot,
    /** The CDN: what it stores and serves, and `bytesServed`. */
    media,
    /** The limits handed out at login (change them before the channel logs in). */
    sharefile,
    /** What the fake saw that Zalo would refuse (a wrong signkey, params that do not decrypt). */
    problems,
    /** Successful `getLoginInfo` calls so far. */
    get logins() {
      return logins;
    },
    get url() {
      return server.url;
    },
    start: () => server.start(),
    close: () => server.close(),
    /** The `channels.zalouser` block pointing at this fake. */
    config: (extra: Record<string, unknown> = {}) => ({ apiBase: server.url, ...extra }),
    set pingIntervalMs(ms: number) {
      pingIntervalMs = ms;
    },

    /** A session of the bot as a finished QR login leaves it in the store. */
    linkedSession(): ZaloSession {
      const imei = `${crypto.randomUUID()}-0d5fca7a9d3a2b8ee2a0f4e0c3ba2a8c`;
      const session = newSession(state, imei);
      const cookie = (key: string, value: string, domain: string) => ({
        key,
        value,
        domain,
        path: "/",
        secure: true,
        httpOnly: true,
        hostOnly: false,
      });
      return {
        imei,
        userAgent: USER_AGENT,
        language: "vi",
        cookies: [cookie("zpsid", session.zpsid, "zalo.me"), cookie("zpw_sek", session.sek, "chat.zalo.me")],
        uid: bot.id,
        name: bot.name,
        linkedAt: new Date().toISOString(),
      };
    },
    /** Writes a linked session into a channel store (what `chorus channels login zalouser` does). */
    async link(store: ChannelStore): Promise<ZaloSession> {
      const session = this.linkedSession();
      await writeSession(store, session);
      return session;
    },

    addUser(user: FakeUser): FakeUser {
      state.users.set(user.id, user);
      return user;
    },
    addGroup(group: FakeGroup): FakeGroup {
      state.groups.set(group.id, group);
      return group;
    },

    /**
     * People write, each message its own frame, pushed back to back in one tick in this order (a frame
     * may say how its `data` is encoded); resolves with the messages once a listener got them all.
     */
    personSendsAll(inputs: readonly (PersonMessage & { encoding?: EventEncoding })[]): Promise<FakeMessage[]> {
      return Promise.all(inputs.map(({ encoding, ...input }) => this.personSends(input, encoding)));
    },
    /** A person writes (its frame's `data` encoded as `encoding`, else the listener's); resolves once a listener got it. */
    async personSends(input: PersonMessage, encoding?: EventEncoding): Promise<FakeMessage> {
      const mentions = (input.mentions ?? []).map((uid) => {
        const tag = uid === "-1" ? "@All" : `@${state.user(uid).name}`;
        return { uid, pos: input.text.indexOf(tag), len: tag.length, type: uid === "-1" ? (1 as const) : (0 as const) };
      });
      const message = state.addMessage({
        cliMsgId: String(nextClientId++),
        threadId: input.group ?? input.from,
        kind: input.group ? "group" : "user",
        uidFrom: input.from,
        text: input.text,
        ts: Date.now(),
        ...(mentions.length ? { mentions } : {}),
        ...(input.replyTo ? { quoteOf: messageOf(input.replyTo).msgId } : {}),
      });
      await deliverMessage(message, encoding);
      return message;
    },
    /** A person sends a photo, video, voice message, file, sticker or location; resolves once a listener got it. */
    async personSendsMedium(input: PersonMedium): Promise<FakeMessage> {
      const message = state.addMessage({
        cliMsgId: String(nextClientId++),
        threadId: input.group ?? input.from,
        kind: input.group ? "group" : "user",
        uidFrom: input.from,
        text: input.caption ?? "",
        ts: Date.now(),
        ...(input.kind === "location"
          ? { location: input.location ?? { latitude: 0, longitude: 0 } }
          : { medium: personMedium(media, input) }),
      });
      await deliverMessage(message);
      return message;
    },
    /** A person reacts with a Zalo icon (`/-strong`); resolves once a listener got it. */
    async personReacts(uid: string, msgId: string, icon: string): Promise<void> {
      const target = messageOf(msgId);
      const rType = ICON_TYPES.get(icon);
      if (rType === undefined) throw new Error(`fake Zalo: ${icon} is not a Zalo icon`);
      state.addReaction(msgId, uid, icon, rType);
      await deliverReaction(target, uid, icon, rType);
    },
    /** The last event again, as Zalo delivers it when a connection was replaced. */
    redeliverLast: () => listener.resendLast(),
    /** A message event the plugin cannot read: no msgId, a number for content, no sender. */
    deliverUnparseable: () =>
      listener.send(501, {
        msgs: [
          { cliMsgId: String(nextClientId++), msgType: "webchat", idTo: "0", ts: String(Date.now()), content: 42 },
        ],
      }),

    /** The phone scans the QR code whose image says `text` (the newest one by default). */
    scanQr: (text?: string) => qr.set(qr.find(text), "scanned"),
    /** The person confirms the login on the phone: the session exists from now on. */
    confirmQr: (text?: string) => qr.set(qr.find(text), "confirmed"),
    declineQr: (text?: string) => qr.set(qr.find(text), "declined"),
    expireQr: (text?: string) => qr.set(qr.find(text), "expired"),

    /** Zalo ends every session of the bot (another login): logins answer 102, listeners close 3003. */
    endSessions(): void {
      for (const session of state.sessions.values()) session.revoked = true;
      listener.closeAll(3003, "kicked");
    },
    /** Another Zalo Web tab of the same session opens its listener: Zalo tells the others (cmd 3000). */
    anotherConnection: () => listener.broadcast(3000, { data: "", encrypt: 0 }),

    fault(kind: PlatformFault): void {
      server.inject(outage(kind));
      listener.fault(kind);
    },
    heal(): void {
      server.clearFaults();
      listener.heal();
    },

    botReactions: (msgId: string) => state.reactionsBy(msgId, bot.id),
    reactionsBy: (msgId: string, uid: string) => state.reactionsBy(msgId, uid),
    messagesIn: (threadId: string) => [...state.messages.values()].filter((m) => m.threadId === threadId),
    botMessages: (threadId: string) =>
      [...state.messages.values()].filter((m) => m.threadId === threadId && m.uidFrom === bot.id),
  };
}

/** A running fake Zalo. */
export type FakeZalo = ReturnType<typeof createFakeZalo>;
