import { randomUUID } from "node:crypto";
import {
  createFakeServer,
  empty,
  type FakeResponse,
  type FakeServer,
  json,
  mediumResponse,
  outage,
  type PlatformFault,
  type RequestContext,
} from "@chorus/testkit";
import type { FakePerson } from "./fake-envelopes.js";
import { FakeEventHub } from "./fake-events.js";
import { FakeLinking } from "./fake-link.js";
import { DataAnswer, hasLongString, JACKSON_MAX_STRING } from "./fake-media.js";
import { type InjectedFailure, RpcFailure, type RpcWorld, SEND_METHODS } from "./fake-rpc.js";
import { FakeSignalState } from "./fake-state.js";
import { PeopleActions } from "./people.js";

export interface FakeSignalOptions {
  /** The bot's account; its number is what `channels.signal.account` says. */
  bot?: { number?: string; name?: string; uuid?: string };
  /** `single`: a daemon started with `-a` (the channel's); `multi`: without (linking). */
  mode?: "single" | "multi";
  /** In multi mode: whether the bot's account is linked already. */
  linked?: boolean;
  /** Basic auth a proxy in front of the daemon checks (401 without it). */
  basicAuth?: { username: string; password: string };
  /** How often open event streams get a `:` keep-alive; signal-cli's 15 s by default, 0 for none. */
  keepAliveMs?: number;
  /** Listen on this port (a restarted daemon comes back on its port). */
  port?: number;
  /**
   * The longest JSON string the daemon reads (Jackson's `maxStringLength`, 20,000,000); a request
   * with a longer one fails whole. Lower it to test the limit without megabytes.
   */
  maxJsonString?: number;
  /**
   * Write `isVoiceNote` on received attachments, as signal-cli after 0.14.6 does
   * (AsamK/signal-cli#2100); 0.14.6 and older drop Signal's voice-note flag (the default).
   */
  voiceNoteFlag?: boolean;
}

/** The version the fake answers with; the JSON shapes follow its `Json*` records. */
export const FAKE_SIGNAL_CLI_VERSION = "0.14.6";

/**
 * A stateful fake `signal-cli daemon --http` on 127.0.0.1: JSON-RPC on `/api/v1/rpc` (errors as
 * HTTP 200 with `error`), Server-Sent Events on `/api/v1/events`, `/api/v1/check`, linking in
 * multi-account mode, files in and out (`send` with `data:` URIs, `getAttachment`, `getSticker`),
 * and what people do on Signal (`people`).
 */
export class FakeSignal {
  readonly state: FakeSignalState;
  readonly events: FakeEventHub;
  readonly linking: FakeLinking;
  readonly people: PeopleActions;
  /** The accounts a multi-account daemon has. */
  readonly accounts = new Set<string>();
  readonly mode: "single" | "multi";
  server: FakeServer;
  readonly #failures: { method: string; failure: InjectedFailure; times: number }[] = [];
  readonly #options: FakeSignalOptions;

  constructor(options: FakeSignalOptions = {}) {
    this.#options = options;
    this.mode = options.mode ?? "single";
    const bot: FakePerson = {
      uuid: options.bot?.uuid ?? randomUUID(),
      number: options.bot?.number ?? "+15550001000",
      name: options.bot?.name ?? "Chorus",
    };
    this.state = new FakeSignalState(bot);
    if (this.mode === "single" || options.linked) this.accounts.add(bot.number as string);
    this.events = new FakeEventHub(options.keepAliveMs ?? 15_000);
    this.linking = new FakeLinking((number) => this.accounts.add(number));
    this.people = new PeopleActions(
      this.state,
      (data) => this.events.send(data),
      () => this.account,
      options.voiceNoteFlag === true,
    );
    this.server = this.#build(options.port);
  }

  get bot(): FakePerson {
    return this.state.bot;
  }

  get account(): string {
    return this.bot.number as string;
  }

  get url(): string {
    return this.server.url;
  }

  start(): Promise<string> {
    return this.server.start();
  }

  async close(): Promise<void> {
    this.events.dropAll();
    await this.server.close();
  }

  /** The daemon stops and comes back on the same port with the same data (event streams cut). */
  async restart(): Promise<void> {
    await this.resume(await this.stop());
  }

  /** The daemon stops (connections refused); resolves with its port for `resume`. */
  async stop(): Promise<number> {
    const port = this.server.port;
    await this.close();
    return port;
  }

  /** A stopped daemon starts again on `port`, with its data. */
  async resume(port: number): Promise<void> {
    this.server = this.#build(port);
    await this.server.start();
  }

  /** The `channels.signal` block pointing at this fake. */
  config(extra: Record<string, unknown> = {}): Record<string, unknown> {
    const auth = this.#options.basicAuth;
    return { account: this.account, httpUrl: this.server.url, ...(auth && { auth }), ...extra };
  }

  /** The next `times` calls of `method` fail like `failure`. */
  failNext(method: string, failure: InjectedFailure, times = 1): void {
    this.#failures.push({ method, failure, times });
  }

  /** Every request misbehaves like `kind` until `heal()`; `close` also cuts the open event streams. */
  fault(kind: PlatformFault): void {
    this.server.inject(outage(kind));
    if (kind === "close") this.events.dropAll();
  }

  heal(): void {
    this.server.clearFaults();
  }

  /** The bot's reaction on the message `author` sent at `timestamp`, as Signal holds it. */
  botReactions(author: string, timestamp: number): string[] {
    return this.state.reactionsBy(this.bot.uuid, this.state.person(author)?.uuid ?? author, timestamp);
  }

  /** What the bot sent into a conversation (a person's uuid or a group id). */
  sentTo(to: string) {
    return this.state.messagesTo(to).filter((m) => m.author === this.bot.uuid);
  }

  /** The JSON-RPC calls of `method` that reached the daemon, their params. */
  calls(method: string): Record<string, unknown>[] {
    return this.server
      .requestsTo("POST", "/api/v1/rpc")
      .map((r) => r.body as { method?: string; params?: Record<string, unknown> })
      .filter((body) => body?.method === method)
      .map((body) => body.params ?? {});
  }

  #build(port: number | undefined): FakeServer {
    const server = createFakeServer(port === undefined ? {} : { port });
    const guard = (handler: (ctx: RequestContext<undefined>) => FakeResponse | Promise<FakeResponse>) => {
      return (ctx: RequestContext<undefined>) => {
        const auth = this.#options.basicAuth;
        const expected = auth && `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString("base64")}`;
        if (expected && ctx.headers.authorization !== expected) return { status: 401, body: "Unauthorized" };
        return handler(ctx);
      };
    };
    server.route(
      "GET",
      "/api/v1/check",
      guard(() => empty(200)),
    );
    server.route(
      "POST",
      "/api/v1/rpc",
      guard((ctx) => this.#rpc(ctx)),
    );
    server.route(
      "GET",
      "/api/v1/events",
      guard((ctx) => {
        const account = ctx.query.get("account");
        if (this.mode === "multi" && account && !this.accounts.has(account)) return empty(400);
        return { headers: { "content-type": "text/event-stream" }, stream: (res) => this.events.attach(res) };
      }),
    );
    return server;
  }

  async #rpc(ctx: RequestContext<undefined>): Promise<FakeResponse> {
    if (!String(ctx.headers["content-type"] ?? "").startsWith("application/json")) return empty(415);
    let request: { id?: unknown; method?: unknown; params?: unknown };
    try {
      request = ctx.json();
    } catch {
      return json(200, { jsonrpc: "2.0", error: { code: -32700, message: "Parse error", data: null }, id: null });
    }
    const id = request.id ?? null;
    // Jackson fails the whole document on a string over its limit; the HTTP handler answers that.
    if (hasLongString(request, this.#options.maxJsonString ?? JACKSON_MAX_STRING)) {
      return json(200, {
        jsonrpc: "2.0",
        error: { code: -32603, message: "An internal server error has occurred.", data: null },
        id: null,
      });
    }
    try {
      if (typeof request.method !== "string") throw new RpcFailure(-32600, "method field must be set");
      const params = { ...((request.params ?? {}) as Record<string, unknown>) };
      const result = await this.#call(request.method, params);
      if (result instanceof DataAnswer) return this.#dataAnswer(result, id);
      return json(200, { jsonrpc: "2.0", result: result ?? {}, id });
    } catch (error) {
      if (!(error instanceof RpcFailure)) throw error;
      return json(200, { jsonrpc: "2.0", error: { code: error.code, message: error.message, data: error.data }, id });
    }
  }

  #call(method: string, params: Record<string, unknown>): unknown {
    const multiOnly = ["listAccounts", "startLink", "finishLink"];
    if (multiOnly.includes(method)) {
      if (this.mode === "single") throw new RpcFailure(-32601, "Method not implemented");
      if (method === "listAccounts") return [...this.accounts].map((number) => ({ number }));
      return method === "startLink" ? this.linking.start() : this.linking.finish(params);
    }
    if (this.mode === "multi") {
      const account = params.account;
      if (account === undefined && this.accounts.size !== 1) {
        throw new RpcFailure(-32602, "Method requires valid account parameter");
      }
      if (account !== undefined && !this.accounts.has(String(account))) {
        throw new RpcFailure(-32602, "Specified account does not exist");
      }
    }
    delete params.account;
    const world: RpcWorld = { state: this.state, takeFailure: (m) => this.#takeFailure(m) };
    const send = SEND_METHODS[method];
    if (send) return send(world, params);
    if (method === "version") return { version: FAKE_SIGNAL_CLI_VERSION };
    if (method === "listContacts") return this.people.contacts(params);
    if (method === "listGroups") return this.people.groups(params);
    if (method === "getAttachment") return this.state.media.getAttachment(params);
    if (method === "getSticker") return this.state.media.getSticker(params);
    throw new RpcFailure(-32601, "Method not implemented");
  }

  /**
   * `{"jsonrpc":"2.0","result":{"data":"<base64>"},"id":…}` with its length, as the daemon writes
   * it (the file read whole, then one JSON body), sent in chunks so a client that stops reading
   * stops the fake; what went out counts in `state.media.bytesServed`.
   */
  #dataAnswer(answer: DataAnswer, id: unknown): FakeResponse {
    const body = JSON.stringify({ jsonrpc: "2.0", result: { data: Buffer.from(answer.bytes).toString("base64") }, id });
    return mediumResponse(Buffer.from(body), {
      headers: { "content-type": "application/json" },
      served: (bytes) => {
        this.state.media.bytesServed += bytes;
      },
    });
  }

  #takeFailure(method: string): InjectedFailure | undefined {
    const at = this.#failures.findIndex((f) => f.method === method);
    const entry = this.#failures[at];
    if (!entry) return undefined;
    entry.times -= 1;
    if (entry.times <= 0) this.#failures.splice(at, 1);
    return entry.failure;
  }
}
