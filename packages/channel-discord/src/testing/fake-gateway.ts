import type { WebSocketHandler } from "@chorus/testkit";
import type { FakeDiscordState, FakeGuild } from "./fake-state.js";

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

interface GatewayPayload {
  op: number;
  d?: unknown;
  s?: number | null;
  t?: string | null;
}

/** One gateway session: survives a dropped socket so the client can RESUME it. */
export interface FakeGatewaySession {
  readonly id: string;
  readonly intents: number;
  seq: number;
  /** Every dispatch with its sequence number, for replay on RESUME. */
  readonly log: GatewayPayload[];
  socket: WebSocket | undefined;
  resumed: number;
}

/** The fake's gateway WebSocket: HELLO, IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME and dispatches. */
export class FakeGateway {
  readonly sessions = new Map<string, FakeGatewaySession>();
  /** Opcodes received from clients, in order (heartbeats included). */
  readonly received: GatewayPayload[] = [];

  constructor(
    private readonly state: FakeDiscordState,
    private readonly token: () => string,
    private readonly url: () => string,
  ) {}

  /** Handles one accepted connection. */
  accept(socket: WebSocket): void {
    send(socket, { op: Op.Hello, d: { heartbeat_interval: 41_250 } });
    socket.on("message", (raw: unknown) => {
      const payload = JSON.parse(String(raw)) as GatewayPayload;
      this.received.push(payload);
      this.#handle(socket, payload);
    });
  }

  /** Sends an event to every session whose intents cover it (queued for replay when its socket is gone). */
  dispatch(type: string, data: unknown, needs: (intents: number) => boolean = () => true): void {
    for (const session of this.sessions.values()) {
      if (!needs(session.intents)) continue;
      this.#dispatchTo(session, type, data);
    }
  }

  /** The session that identified most recently. */
  get current(): FakeGatewaySession | undefined {
    return [...this.sessions.values()].at(-1);
  }

  #handle(socket: WebSocket, payload: GatewayPayload): void {
    if (payload.op === Op.Heartbeat) {
      send(socket, { op: Op.HeartbeatAck });
      return;
    }
    if (payload.op === Op.Identify) {
      const d = payload.d as { token: string; intents: number };
      if (d.token !== this.token()) {
        socket.close(4004, "Authentication failed.");
        return;
      }
      this.#identify(socket, d.intents);
      return;
    }
    if (payload.op === Op.Resume) {
      const d = payload.d as { token: string; session_id: string; seq: number };
      const session = this.sessions.get(d.session_id);
      if (d.token !== this.token() || !session) {
        send(socket, { op: Op.InvalidSession, d: false });
        return;
      }
      session.socket = socket;
      session.resumed += 1;
      for (const missed of session.log.filter((p) => (p.s ?? 0) > d.seq)) send(socket, missed);
      this.#dispatchTo(session, "RESUMED", {});
    }
  }

  #identify(socket: WebSocket, intents: number): void {
    const session: FakeGatewaySession = {
      id: `session-${this.state.snowflake()}`,
      intents,
      seq: 0,
      log: [],
      socket,
      resumed: 0,
    };
    this.sessions.set(session.id, session);
    this.#dispatchTo(session, "READY", {
      v: 10,
      user: { discriminator: "0", avatar: null, global_name: null, ...this.state.bot, bot: true },
      guilds: [...this.state.guilds.keys()].map((id) => ({ id, unavailable: true })),
      session_id: session.id,
      resume_gateway_url: this.url(),
      application: { id: this.state.bot.id, flags: 0 },
      shard: [0, 1],
      private_channels: [],
      relationships: [],
      user_settings: {},
    });
    for (const guild of this.state.guilds.values())
      this.#dispatchTo(session, "GUILD_CREATE", this.#guildPayload(guild));
  }

  #guildPayload(guild: FakeGuild): unknown {
    const channels = [...this.state.channels.values()].filter((c) => c.guild_id === guild.id);
    const member = (userId: string, roles: string[]) => ({
      user: this.state.users.get(userId),
      roles,
      joined_at: new Date(0).toISOString(),
      deaf: false,
      mute: false,
      flags: 0,
    });
    return {
      id: guild.id,
      name: guild.name,
      icon: null,
      owner_id: this.state.bot.id,
      unavailable: false,
      large: false,
      member_count: guild.members.size,
      joined_at: new Date(0).toISOString(),
      features: [],
      roles: [
        { id: guild.id, name: "@everyone", permissions: "0", position: 0, color: 0, hoist: false, managed: false },
        ...guild.roles.map((r, i) => ({
          ...r,
          permissions: "0",
          position: i + 1,
          color: 0,
          hoist: false,
          managed: false,
        })),
      ],
      emojis: guild.emojis.map((e) => ({ ...e, roles: [], require_colons: true, managed: false, available: true })),
      stickers: [],
      members: [...guild.members].map(([id, roles]) => member(id, roles)),
      channels: channels
        .filter((c) => c.type === 0)
        .map((c, i) => ({ id: c.id, type: c.type, name: c.name, position: i, permission_overwrites: [] })),
      threads: channels
        .filter((c) => c.type === 11)
        .map((c) => ({
          id: c.id,
          type: c.type,
          name: c.name,
          guild_id: guild.id,
          parent_id: c.parent_id,
          owner_id: this.state.bot.id,
          thread_metadata: {
            archived: false,
            auto_archive_duration: 1440,
            archive_timestamp: new Date(0).toISOString(),
            locked: false,
          },
        })),
      presences: [],
      voice_states: [],
      stage_instances: [],
      guild_scheduled_events: [],
    };
  }

  #dispatchTo(session: FakeGatewaySession, type: string, data: unknown): void {
    session.seq += 1;
    const payload: GatewayPayload = { op: Op.Dispatch, t: type, s: session.seq, d: data };
    session.log.push(payload);
    if (session.socket?.readyState === OPEN) send(session.socket, payload);
  }
}

function send(socket: WebSocket, payload: GatewayPayload): void {
  socket.send(JSON.stringify({ s: null, t: null, ...payload }));
}
