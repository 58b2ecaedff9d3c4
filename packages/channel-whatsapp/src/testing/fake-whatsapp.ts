import { createFakeServer, type FakeServer, type PlatformFault, waitFor } from "@chorus/testkit";
import type { AuthenticationCreds, BinaryNode, proto } from "@whiskeysockets/baileys";
import { type ConnectionHandler, FakeConnection } from "./connection.js";
import { type FakeContext, type FakeProblem, reportProblem } from "./context.js";
import type { FakeGroup, FakePerson, GroupInput, PersonInput } from "./directory.js";
import { dispatch } from "./dispatch.js";
import { fakeInputError } from "./errors.js";
import { createFakeContext } from "./fake-context.js";
import type {
  FakeWhatsApp,
  FakeWhatsAppOptions,
  OwnerReactInput,
  OwnerSendInput,
  PersonMediumInput,
  PersonReactInput,
  PersonSendInput,
  PersonUnreadableInput,
} from "./fake-whatsapp-api.js";
import type { IqFailure, IqMatch, MessageFault } from "./faults.js";
import type { IqDeps } from "./iq-handlers.js";
import { linkedCreds } from "./linked-creds.js";
import { Linking } from "./linking.js";
import { login } from "./login.js";
import type { HostedMedium } from "./media-host.js";
import { type FakeMedium, mediumOfMessage, type PhoneMediumInput, phoneMediumMessage } from "./media-messages.js";
import type { FakeKey, FakeStoredMessage, SentReaction } from "./message-store.js";
import { type PairingCodeRequest, PairingCodes } from "./pairing-code.js";
import { personChat, reactFromPhone, sendFromPhone, sendUnreadableFromPhone } from "./phone-actions.js";
import type { ReceivedStanza, StanzaFilter } from "./stanza-log.js";

export type { FakeWhatsApp, FakeWhatsAppOptions };

/** Creates (not yet started) a fake WhatsApp server. */
export function createFakeWhatsApp(options: FakeWhatsAppOptions = {}): FakeWhatsApp {
  return new FakeWhatsAppServer(options);
}

class FakeWhatsAppServer implements FakeWhatsApp {
  readonly server: FakeServer = createFakeServer();
  readonly #ctx: FakeContext;
  readonly #deps: IqDeps;

  constructor(options: FakeWhatsAppOptions) {
    this.#ctx = createFakeContext(options);
    const linking = new Linking(this.#ctx);
    this.#deps = { ctx: this.#ctx, linking, pairingCodes: new PairingCodes(this.#ctx, linking) };
    this.server.websocket("/ws/chat", (socket) => {
      // A server that drops connections cuts a new one at once.
      if (this.#ctx.outage === "close") return socket.terminate();
      this.#ctx.connections.add(new FakeConnection(socket, this.#handler));
    });
  }

  readonly #handler: ConnectionHandler = {
    hello: (connection, noiseKey, payload) => {
      if (payload.devicePairingData) this.#deps.linking.register(connection, noiseKey, payload);
      else login(this.#ctx, connection, noiseKey, payload);
    },
    node: (connection, node) => dispatch(this.#deps, connection, node),
    closed: (connection) => {
      this.#ctx.connections.delete(connection);
      this.#deps.linking.closed(connection);
      this.#deps.pairingCodes.closed(connection);
    },
    failed: (connection, error) => {
      // Frames a client sent while the fake played garbage cannot be read afterwards; that is no problem.
      if (!connection.misled) reportProblem(this.#ctx, "a connection failed", error);
    },
    outage: () => this.#ctx.outage,
  };

  async start(): Promise<void> {
    await this.server.start();
    await this.#ctx.media.start();
  }

  async close(): Promise<void> {
    await Promise.all([this.server.close(), this.#ctx.media.close()]);
  }

  get url(): string {
    return `ws://127.0.0.1:${this.server.port}/ws/chat`;
  }

  get bot(): FakePerson {
    return publicPerson(this.#ctx.directory.bot);
  }

  linkedCreds(): AuthenticationCreds {
    return linkedCreds(this.#ctx.directory.bot, this.#ctx.companions);
  }

  addPerson(person: PersonInput): FakePerson {
    return publicPerson(this.#ctx.directory.addPerson(person));
  }

  person(phoneOrJid: string): FakePerson {
    const { directory } = this.#ctx;
    return publicPerson(directory.memberByJid(phoneOrJid) ?? directory.memberByPhone(phoneOrJid));
  }

  addGroup(group: GroupInput): FakeGroup {
    return this.#ctx.directory.addGroup(group);
  }

  group(jid: string): FakeGroup {
    return this.#ctx.directory.group(jid);
  }

  personSends(input: PersonSendInput): FakeKey {
    const sender = this.#ctx.directory.memberByPhone(input.from);
    return sendFromPhone(this.#ctx, sender, personChat(this.#ctx, sender, input.chat), input);
  }

  personSendsMedium(input: PersonMediumInput): FakeKey {
    const { from, chat, viewOnce, id, ...medium } = input;
    const content = this.phoneMedium(medium);
    const message = viewOnce ? { viewOnceMessageV2: { message: content } } : content;
    return this.personSends({ from, ...(chat ? { chat } : {}), ...(id ? { id } : {}), message });
  }

  phoneMedium(input: PhoneMediumInput): proto.IMessage {
    return phoneMediumMessage(this.#ctx, input);
  }

  mediumOf(message: FakeStoredMessage): FakeMedium | undefined {
    return mediumOfMessage(this.#ctx, message.raw);
  }

  get mediaAuth(): string {
    return this.#ctx.media.auth;
  }

  get mediaHost(): string {
    return this.#ctx.media.hostname;
  }

  mediaUploads(): HostedMedium[] {
    return this.#ctx.media.media.filter((medium) => medium.byBot);
  }

  mediaRefusals(): { status: number; why: string }[] {
    return [...this.#ctx.media.refusals];
  }

  get mediaBytesServed(): number {
    return this.#ctx.media.served;
  }

  dropMedium(directPath: string): void {
    this.#ctx.media.drop(directPath);
  }

  hostMedium(directPath: string, enc: Uint8Array): void {
    this.#ctx.media.put(directPath, Buffer.from(enc), "image");
  }

  ownerSends(input: OwnerSendInput): FakeKey {
    const { directory } = this.#ctx;
    return sendFromPhone(this.#ctx, directory.bot, directory.resolveChat(input.chat), input);
  }

  personSendsUnreadable(input: PersonUnreadableInput): FakeKey {
    const sender = this.#ctx.directory.memberByPhone(input.from);
    return sendUnreadableFromPhone(this.#ctx, sender, personChat(this.#ctx, sender, input.chat));
  }

  redeliverLast(): void {
    const last = this.#ctx.delivery.last;
    if (!last) throw fakeInputError("nothing was delivered to the bot yet");
    this.#ctx.delivery.deliver(last);
  }

  deliverStanza(stanza: BinaryNode): void {
    this.#ctx.delivery.deliver(stanza);
  }

  async fault(kind: PlatformFault): Promise<void> {
    this.#ctx.outage = kind;
    if (kind === "close") await this.dropConnections();
    if (kind === "garbage") for (const connection of this.#ctx.connections) connection.sendGarbage();
  }

  heal(): void {
    this.#ctx.outage = undefined;
  }

  personReacts(input: PersonReactInput): FakeKey {
    const reactor = this.#ctx.directory.memberByPhone(input.from);
    return reactFromPhone(this.#ctx, reactor, personChat(this.#ctx, reactor, input.chat), input.target, input.emoji);
  }

  ownerReacts(input: OwnerReactInput): FakeKey {
    const { directory } = this.#ctx;
    return reactFromPhone(this.#ctx, directory.bot, directory.resolveChat(input.chat), input.target, input.emoji);
  }

  messagesIn(chat: string): FakeStoredMessage[] {
    return this.#ctx.store.messagesIn(this.#ctx.directory.resolveChat(chat));
  }

  botMessages(chat: string): FakeStoredMessage[] {
    return this.messagesIn(chat).filter((message) => message.fromBot);
  }

  reactionsOn(chat: string, messageId: string): Record<string, string> {
    return this.#ctx.store.reactionsOn(this.#ctx.directory.resolveChat(chat), messageId);
  }

  botReaction(chat: string, messageId: string): string | undefined {
    return this.reactionsOn(chat, messageId)[this.#ctx.directory.bot.jid];
  }

  botReactionsSent(): SentReaction[] {
    return [...this.#ctx.store.botReactions];
  }

  presence(chat: string): string[] {
    return this.#ctx.store.chatStates(this.#ctx.directory.resolveChat(chat));
  }

  stanzas(filter?: StanzaFilter): ReceivedStanza[] {
    return this.#ctx.log.list(filter);
  }

  unhandled(): ReceivedStanza[] {
    return this.#ctx.log.list().filter((entry) => !entry.handled);
  }

  get problems(): readonly FakeProblem[] {
    return [...this.#ctx.problems];
  }

  get connections(): number {
    return this.#ctx.connections.size;
  }

  get logins(): number {
    return this.#ctx.logins;
  }

  async waitForLogin(count = 1, timeoutMs = 15_000): Promise<void> {
    await waitFor(() => this.#ctx.logins >= count, { timeoutMs, message: `${count} login(s) to the fake WhatsApp` });
  }

  linkedDevices(): number[] {
    return this.#ctx.companions.active().map((companion) => companion.device);
  }

  scanQr(qr: string): Promise<void> {
    return this.#deps.linking.scanQr(qr);
  }

  pairingCodeRequests(): PairingCodeRequest[] {
    return this.#deps.pairingCodes.requests();
  }

  enterPairingCode(code: string): Promise<void> {
    return this.#deps.pairingCodes.enter(code);
  }

  dropConnections(): Promise<void> {
    return this.server.dropWebSockets();
  }

  logOut(): void {
    this.#ctx.companions.removeAll();
    for (const connection of this.#ctx.connections) {
      if (!connection.loggedIn) continue;
      connection.loggedIn = false;
      connection.send({
        tag: "stream:error",
        attrs: { code: "401" },
        content: [{ tag: "conflict", attrs: { type: "device_removed" } }],
      });
      connection.closeSoon();
    }
  }

  failNextIq(match: IqMatch, error: IqFailure, times = 1): void {
    this.#ctx.iqFaults.add(match, error, times);
  }

  failNextMessage(fault: MessageFault, times = 1): void {
    for (let i = 0; i < times; i++) this.#ctx.messageFaults.push(fault);
  }

  failNextLogin(reason: number, times = 1): void {
    for (let i = 0; i < times; i++) this.#ctx.loginFailures.push(reason);
  }
}

/** The public view of a member (no device internals). */
function publicPerson(member: FakePerson): FakePerson {
  const { phone, name, lid, jid, lidJid } = member;
  return { phone, name, lid, jid, lidJid };
}
