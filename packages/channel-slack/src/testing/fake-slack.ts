import { randomBytes, randomUUID } from "node:crypto";
import { createFakeServer, type FakeServer, faults, outage, type PlatformFault } from "@chorus/testkit";
import { FakeSlackHttpEvents, type PostOptions, SLACK_REDELIVERY } from "./fake-events.js";
import { type FakeMediaOptions, FakeSlackMedia, SIGN_IN_PAGE, type UserFile } from "./fake-media.js";
import { FakeSlackSocket } from "./fake-socket.js";
import { type FakeConversation, type FakeMessage, FakeSlackState, type FakeUser } from "./fake-state.js";
import { type FakeBot, installWebApi } from "./fake-web-api.js";

export interface FakeSlackOptions extends FakeMediaOptions {
  /** How events reach the app: Socket Mode (default) or HTTP posts to the Request URL. */
  mode?: "socket" | "http";
  botToken?: string;
  appToken?: string;
  signingSecret?: string;
  bot?: Partial<FakeBot>;
  /**
   * The waits before Slack retries a delivery that was not acknowledged (default Slack's: at once,
   * 1 minute, 5 minutes); short in tests.
   */
  retryDelaysMs?: readonly number[];
  /** How long Slack waits for an HTTP answer or a Socket Mode ack (default Slack's 3 s). */
  answerWithinMs?: number;
}

/** Someone writing in Slack. */
export interface UserMessage {
  channel: string;
  user: string;
  text: string;
  thread_ts?: string;
  /** `file_share`, `thread_broadcast`, `channel_join`, … */
  subtype?: string;
  /** Which of a mention's two events Slack delivers first. */
  order?: "message-first" | "mention-first";
}

/** Someone sharing files, in one message (`subtype: "file_share"`). */
export interface UserFilesMessage extends Omit<UserMessage, "text" | "subtype"> {
  text?: string;
  files: readonly UserFile[];
  /** A Slack Connect channel: the events carry stubs (`"file_access": "check_file_info"`) instead of file objects. */
  connect?: boolean;
}

/** The bot events the fake app subscribes to (Event Subscriptions → Subscribe to bot events). */
const SUBSCRIBED = new Set(["message", "app_mention", "reaction_added", "reaction_removed"]);

/**
 * A stateful fake Slack on 127.0.0.1: the Web API (`/api/<method>`), Socket Mode
 * (`apps.connections.open` + a WebSocket) or signed Events API posts, and what people do.
 */
export class FakeSlack {
  readonly server: FakeServer = createFakeServer();
  readonly state = new FakeSlackState();
  readonly mode: "socket" | "http";
  readonly botToken: string;
  readonly appToken: string;
  readonly signingSecret: string;
  readonly bot: FakeBot;
  readonly team = { id: "T0FAKE0001", name: "Fake Workspace" };
  readonly revoked = new Set<string>();
  readonly http: FakeSlackHttpEvents;
  readonly socket: FakeSlackSocket;
  /** Files, their hosts and the workspace's file settings. */
  readonly media: FakeSlackMedia;
  /** The last envelope delivered, for `redeliverLast`. */
  #last: Record<string, unknown> | undefined;
  /** Messages posted in a Slack Connect channel: their events carry file stubs. */
  readonly #connect = new Set<FakeMessage>();

  constructor(options: FakeSlackOptions = {}) {
    this.mode = options.mode ?? "socket";
    this.botToken = options.botToken ?? `xoxb-fake-${randomBytes(8).toString("hex")}`;
    this.appToken = options.appToken ?? `xapp-1-fake-${randomBytes(8).toString("hex")}`;
    this.signingSecret = options.signingSecret ?? randomBytes(16).toString("hex");
    this.bot = {
      id: "U0BOT00001",
      name: "chorus",
      display_name: "Chorus",
      is_bot: true,
      bot_id: "B0BOT00001",
      app_id: "A0APP00001",
      ...options.bot,
    };
    this.state.users.set(this.bot.id, this.bot);
    const redelivery = {
      retryDelaysMs: options.retryDelaysMs ?? SLACK_REDELIVERY.retryDelaysMs,
      answerWithinMs: options.answerWithinMs ?? SLACK_REDELIVERY.answerWithinMs,
    };
    const facts = { teamId: this.team.id, appId: this.bot.app_id, botUserId: this.bot.id };
    this.http = new FakeSlackHttpEvents(this.signingSecret, facts, redelivery);
    this.socket = new FakeSlackSocket(this.server, this.bot.app_id, redelivery);
    const workspaceUrl = () => this.server.url;
    const onMessage = (message: FakeMessage) => void this.#messageEvents(message);
    const { state, bot, team, botToken, revoked } = this;
    this.media = new FakeSlackMedia({ state, bot, team, botToken, revoked, workspaceUrl, onMessage }, options);
    // The workspace's sign-in page, where a file download without an accepted token ends up.
    this.server.route("GET", "/", () => SIGN_IN_PAGE);
    installWebApi(this.server, {
      ...{ state, bot, team, revoked, onMessage },
      tokens: { bot: this.botToken, app: this.appToken },
      openSocket: () => this.socket.openUrl(),
      onReaction: (type, message, user, name) => void this.#reactionEvent(type, message, user, name),
      more: this.media.methods(),
    });
  }

  get url(): string {
    return this.server.url;
  }

  /** What `apiUrl` must be: the Web API root with its trailing slash. */
  get apiUrl(): string {
    return `${this.server.url}/api/`;
  }

  async start(): Promise<string> {
    await this.media.start();
    return this.server.start();
  }

  /** Stops: retries still to come are dropped, then the servers close. */
  async close(): Promise<void> {
    await this.http.close();
    this.socket.close();
    await Promise.all([this.server.close(), this.media.close()]);
  }

  /** The `channels.slack` block that points the plugin at this fake, in its mode. */
  config(extra: Record<string, unknown> = {}): Record<string, unknown> {
    const transport =
      this.mode === "socket" ? { appToken: this.appToken } : { signingSecret: this.signingSecret, mode: "http" };
    return { botToken: this.botToken, apiUrl: this.apiUrl, fileHosts: this.media.fileHosts, ...transport, ...extra };
  }

  addUser(user: FakeUser): FakeUser {
    this.state.users.set(user.id, user);
    return user;
  }

  /** Adds a conversation; the bot is a member unless `members` leaves it out on purpose. */
  addConversation(conversation: FakeConversation): FakeConversation {
    this.state.conversations.set(conversation.id, conversation);
    return conversation;
  }

  /**
   * Someone writes; resolves once Slack delivered every event about it: over HTTP once the app
   * answered the first attempt (retries follow on their own), in Socket Mode once an envelope was
   * acknowledged or Slack gave up.
   */
  async userSends(input: UserMessage): Promise<FakeMessage> {
    const { order: _order, ...fields } = input;
    const message = this.state.post(fields);
    await this.#messageEvents(message, input.order);
    return message;
  }

  /** Someone shares files in one message (with its text, the caption); resolves once Slack delivered its events. */
  async userSendsFiles(input: UserFilesMessage): Promise<FakeMessage> {
    const { order, files: shared, connect, text = "", ...fields } = input;
    const files = this.media.filesOf(input.user, shared);
    const message = this.state.post({ ...fields, text, subtype: "file_share", upload: true, files });
    if (connect) this.#connect.add(message);
    await this.#messageEvents(message, order);
    return message;
  }

  /** Someone reacts with a Slack emoji name; resolves once delivered. */
  async userReacts(channel: string, ts: string, user: string, name: string): Promise<void> {
    const message = this.#message(channel, ts);
    if (this.state.addReaction(message, user, name)) await this.#reactionEvent("reaction_added", message, user, name);
  }

  async userUnreacts(channel: string, ts: string, user: string, name: string): Promise<void> {
    const message = this.#message(channel, ts);
    if (this.state.removeReaction(message, user, name))
      await this.#reactionEvent("reaction_removed", message, user, name);
  }

  /** Delivers the last envelope again by hand, as a retry (attempt 1) of Slack's: same `event_id`. */
  async redeliverLast(): Promise<void> {
    if (!this.#last) throw new Error("fake Slack: nothing delivered yet");
    if (this.mode === "socket") await this.socket.deliver(this.#last, { attempt: 1, reason: "timeout" });
    else await this.http.post(JSON.stringify(this.#last), { retry: { num: 1, reason: "http_timeout" } });
  }

  /** A correctly signed event that is not what Slack documents: a message without a channel, `ts` a number. */
  async deliverUnparseable(): Promise<void> {
    const event = {
      type: "message",
      channel_type: "channel",
      user: "U0NOBODY01",
      text: "garbled",
      ts: 1355517523.000005,
    };
    await this.#deliver(this.http.envelope(event));
  }

  /** A message event carrying `text`, signed with a secret that is not the app's; resolves with the answer's status. */
  forge(text: string, to?: string): Promise<number> {
    const event = {
      type: "message",
      channel: "C0FORGED01",
      channel_type: "channel",
      user: "U0FORGER01",
      text,
      ts: this.state.nextTs(),
    };
    return this.http.post(JSON.stringify(this.http.envelope(event)), {
      secret: "not-the-signing-secret-0000",
      ...(to ? { to } : {}),
    });
  }

  /** Posts an envelope (HTTP mode) with the given signing changes. */
  post(envelope: Record<string, unknown>, options?: PostOptions): Promise<number> {
    return this.http.post(JSON.stringify(envelope), options);
  }

  /** `method` answers 429 with `Retry-After: seconds` (`times` calls). */
  rateLimit(method: string, seconds: number, times = 1): void {
    this.server.inject(
      faults.rateLimit({ path: `/api/${method}` }, seconds, { times, body: { ok: false, error: "ratelimited" } }),
    );
  }

  /** From now on the Web API and Socket Mode misbehave like `kind`, until `heal()`. */
  fault(kind: PlatformFault): void {
    this.server.inject(outage(kind, { path: /^\/api\// }));
    this.socket.fault(kind);
  }

  heal(): void {
    this.server.clearFaults();
    this.socket.heal();
  }

  /** The bot's reactions on a message, by the names Slack holds them under. */
  botReactions(channel: string, ts: string): string[] {
    return this.state.reactionsBy(this.state.message(channel, ts), this.bot.id);
  }

  reactionsBy(channel: string, ts: string, user: string): string[] {
    return this.state.reactionsBy(this.state.message(channel, ts), user);
  }

  messagesIn(channel: string): FakeMessage[] {
    return this.state.messagesIn(channel);
  }

  #message(channel: string, ts: string): FakeMessage {
    const message = this.state.message(channel, ts);
    if (!message) throw new Error(`fake Slack: no message ${ts} in ${channel}`);
    return message;
  }

  /** `message` to every member app, and `app_mention` when the bot is mentioned outside a DM. */
  async #messageEvents(message: FakeMessage, order: UserMessage["order"] = "message-first"): Promise<void> {
    const conversation = this.state.conversations.get(message.channel);
    if (!conversation?.members.includes(this.bot.id)) return;
    const { reactions: _r, files, ...fields } = message;
    const shared = this.#connect.has(message) ? files?.map((file) => this.media.stubOf(file)) : files;
    const common = { ...fields, ...(shared ? { files: shared } : {}), team: this.team.id, event_ts: message.ts };
    const person = message.bot_id === undefined ? { client_msg_id: randomUUID() } : {};
    const events: Record<string, unknown>[] = [
      { type: "message", ...common, ...person, channel_type: conversation.type },
    ];
    const mentioned = message.text.includes(`<@${this.bot.id}>`);
    if (mentioned && conversation.type !== "im" && message.user !== this.bot.id) {
      const { subtype: _s, ...mention } = common;
      events.push({ type: "app_mention", ...mention, ...person });
    }
    if (order === "mention-first") events.reverse();
    for (const event of events) await this.#deliver(this.http.envelope(event));
  }

  #reactionEvent(type: string, message: FakeMessage, user: string, name: string): Promise<void> {
    const conversation = this.state.conversations.get(message.channel);
    if (!conversation?.members.includes(this.bot.id) || !SUBSCRIBED.has(type)) return Promise.resolve();
    const item = { type: "message", channel: message.channel, ts: message.ts, channel_type: conversation.type };
    return this.#deliver(
      this.http.envelope({ type, user, reaction: name, item_user: message.user, item, event_ts: this.state.nextTs() }),
    );
  }

  async #deliver(envelope: Record<string, unknown>): Promise<void> {
    this.#last = envelope;
    if (this.mode === "socket") await this.socket.deliver(envelope);
    else await this.http.post(JSON.stringify(envelope));
  }
}

/** Creates (not yet started) a fake Slack. */
export function createFakeSlack(options: FakeSlackOptions = {}): FakeSlack {
  return new FakeSlack(options);
}
