import type { PlatformFault, WebSocketHandler } from "@chorus/testkit";
import type { FakeDiscordState } from "./fake-state.js";
import { guildCreate, readyPayload } from "./wire.js";

/** Gateway opcodes the fake speaks (Discord API v10). */
export const Op = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  Resume: 6,
  Reconnect: 7,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
} as const;

/** Intent bits the fake checks. */
export const Intent = {
  Guilds: 1 << 0,
  GuildMessages: 1 << 9,
  GuildMessageReactions: 1 << 10,
  DirectMessages: 1 << 12,
  DirectMessageReactions: 1 << 13,
  MessageContent: 1 << 15,
} as const;

/** The `ws` socket the testkit server hands over (typed through testkit, which owns `ws`). */
type WebSocket = Parameters<WebSocketHandler>[0];
const OPEN = 1;

/** What a gateway that answers garbage sends: a frame that is not JSON. */
export const GARBAGE_FRAME = '<html><body>502 Bad Gateway</body></html>{"op": 0, "t": "MESSAGE_CRE';

export interface GatewayPayload {
  op: number;
  d?: unknown;
  s?: number | null;
  t?: string | null;
}

/** One gateway session: survives a dropped socket so the client can RESUME it. */
export interface FakeGatewaySession {
  readonly id: string;
  readonly token: string;
  readonly intents: number;
  seq: number;
  /** Every dispatch with its sequence number, for replay on RESUME. */
  readonly log: GatewayPayload[];
  socket: WebSocket | undefined;
  resumed: number;
}

export interface FakeGatewayOptions {
  /** The token IDENTIFY and RESUME must carry (read at each use: it can be reset). */
  token: () => string;
  /** The URL READY names for resuming. */
  url: () => string;
  /** `heartbeat_interval` of HELLO; Discord sends about 41 s. */
  heartbeatIntervalMs?: number;
  /** False: an IDENTIFY asking for MESSAGE_CONTENT is closed with 4014, as for a bot without the portal switch. */
  messageContentAllowed?: boolean;
}

/**
 * The fake's gateway WebSocket: HELLO, IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME with
 * replay and dispatches, and the four ways a gateway fails (`fault`): `refuse` closes sockets
 * with 4000 and closes every IDENTIFY/RESUME the same way; `close` drops every socket at once;
 * `hang` sends nothing (no HELLO, no dispatch, no heartbeat ACK); `garbage` sends frames that are
 * not JSON. Sessions survive a fault, so a client that resumes afterwards gets what it missed.
 */
export class FakeGateway {
  readonly sessions = new Map<string, FakeGatewaySession>();
  /** Opcodes received from clients, in order (heartbeats included). */
  readonly received: GatewayPayload[] = [];
  /** Connections accepted, faulted or not. */
  accepted = 0;
  readonly #sockets = new Set<WebSocket>();
  /** Sockets that hung or carried garbage: dropped when the fault heals (the client then resumes). */
  readonly #stale = new Set<WebSocket>();
  #fault: PlatformFault | undefined;

  constructor(
    private readonly state: FakeDiscordState,
    private readonly options: FakeGatewayOptions,
  ) {}

  /** The fault the gateway is in, if any. */
  get fault(): PlatformFault | undefined {
    return this.#fault;
  }

  /** From now on the gateway misbehaves like `kind` (see the class comment), open sockets included. */
  startFault(kind: PlatformFault): void {
    this.#fault = kind;
    for (const socket of this.#sockets) this.#afflict(socket);
  }

  /** Ends the fault; sockets that hung or carried garbage are dropped, so their clients resume. */
  heal(): void {
    this.#fault = undefined;
    for (const socket of this.#stale) socket.terminate();
    this.#stale.clear();
  }

  /** Handles one accepted connection. */
  accept(socket: WebSocket): void {
    this.accepted += 1;
    this.#sockets.add(socket);
    socket.on("close", () => {
      this.#sockets.delete(socket);
      this.#stale.delete(socket);
    });
    socket.on("message", (raw: unknown) => this.#receive(socket, String(raw)));
    if (this.#fault !== undefined && this.#fault !== "refuse") {
      this.#afflict(socket);
      return;
    }
    this.#send(socket, { op: Op.Hello, d: { heartbeat_interval: this.options.heartbeatIntervalMs ?? 41_250 } });
  }

  /** Sends an event to every session whose intents cover it (kept for replay when its socket is gone). */
  dispatch(type: string, data: unknown, needs: (intents: number) => boolean = () => true): void {
    for (const session of this.sessions.values()) {
      if (!needs(session.intents)) continue;
      this.#dispatchTo(session, type, data);
    }
  }

  /** Sends the current session's last dispatch again, same sequence number (as a replay after RESUME does). */
  redeliverLast(): void {
    const session = this.current;
    const last = session?.log.at(-1);
    if (!session?.socket || !last) throw new Error("fake Discord: no dispatch to redeliver");
    this.#send(session.socket, last);
  }

  /** Ends every session of `token` as Discord does when a token is reset: close code 4004. */
  revoke(token: string): void {
    for (const [id, session] of this.sessions) {
      if (session.token !== token) continue;
      session.socket?.close(4004, "Authentication failed.");
      this.sessions.delete(id);
    }
  }

  /** The session that identified most recently. */
  get current(): FakeGatewaySession | undefined {
    return [...this.sessions.values()].at(-1);
  }

  #afflict(socket: WebSocket): void {
    switch (this.#fault) {
      case "refuse":
        socket.close(4000, "Unknown error.");
        return;
      case "close":
        socket.terminate();
        return;
      case "garbage":
        this.#stale.add(socket);
        socket.send(GARBAGE_FRAME);
        return;
      case "hang":
        this.#stale.add(socket);
        return;
    }
  }

  #receive(socket: WebSocket, raw: string): void {
    let payload: GatewayPayload;
    try {
      payload = JSON.parse(raw) as GatewayPayload;
    } catch {
      socket.close(4002, "Error while decoding payload.");
      return;
    }
    this.received.push(payload);
    if (this.#stale.has(socket)) {
      if (this.#fault === "garbage") socket.send(GARBAGE_FRAME);
      return;
    }
    if (this.#fault === "refuse" && (payload.op === Op.Identify || payload.op === Op.Resume)) {
      socket.close(4000, "Unknown error.");
      return;
    }
    this.#handle(socket, payload);
  }

  #handle(socket: WebSocket, payload: GatewayPayload): void {
    if (payload.op === Op.Heartbeat) {
      this.#send(socket, { op: Op.HeartbeatAck });
      return;
    }
    if (payload.op === Op.Identify) {
      const d = payload.d as { token: string; intents: number };
      if (d.token !== this.options.token()) {
        socket.close(4004, "Authentication failed.");
        return;
      }
      if ((d.intents & Intent.MessageContent) !== 0 && this.options.messageContentAllowed === false) {
        socket.close(4014, "Disallowed intent(s).");
        return;
      }
      this.#identify(socket, d.token, d.intents);
      return;
    }
    if (payload.op === Op.Resume) {
      const d = payload.d as { token: string; session_id: string; seq: number };
      const session = this.sessions.get(d.session_id);
      if (d.token !== this.options.token() || !session) {
        this.#send(socket, { op: Op.InvalidSession, d: false });
        return;
      }
      session.socket = socket;
      session.resumed += 1;
      for (const missed of session.log.filter((p) => (p.s ?? 0) > d.seq)) this.#send(socket, missed);
      this.#dispatchTo(session, "RESUMED", {});
    }
  }

  #identify(socket: WebSocket, token: string, intents: number): void {
    const session: FakeGatewaySession = {
      id: `session-${this.state.snowflake()}`,
      token,
      intents,
      seq: 0,
      log: [],
      socket,
      resumed: 0,
    };
    this.sessions.set(session.id, session);
    this.#dispatchTo(session, "READY", readyPayload(this.state, session.id, this.options.url()));
    for (const guild of this.state.guilds.values())
      this.#dispatchTo(session, "GUILD_CREATE", guildCreate(this.state, guild));
  }

  #dispatchTo(session: FakeGatewaySession, type: string, data: unknown): void {
    session.seq += 1;
    const payload: GatewayPayload = { op: Op.Dispatch, t: type, s: session.seq, d: data };
    session.log.push(payload);
    if (session.socket) this.#send(session.socket, payload);
  }

  #send(socket: WebSocket, payload: GatewayPayload): void {
    if (socket.readyState !== OPEN) return;
    if (this.#stale.has(socket)) {
      if (this.#fault === "garbage") socket.send(GARBAGE_FRAME);
      return;
    }
    socket.send(JSON.stringify({ s: null, t: null, ...payload }));
  }
}
