import { randomBytes } from "node:crypto";
import type { FakeServer, PlatformFault, WebSocketHandler } from "@chorus/testkit";
import { json } from "@chorus/testkit";
import type { FeishuRedelivery } from "./fake-webhooks.js";
import { decodeFrame, encodeFrame, FrameMethod, type LarkFrame } from "./frames.js";

/** The socket the testkit server hands over (typed through testkit, which owns `ws`). */
type Socket = Parameters<WebSocketHandler>[0];
const OPEN = 1;

/** What the endpoint tells the client about pings and reconnects (seconds; -1 reconnects forever). */
export interface ClientConfig {
  PingInterval: number;
  ReconnectCount: number;
  ReconnectInterval: number;
  ReconnectNonce: number;
}

/** Feishu's own values: ping every 2 minutes, reconnect forever every 2 minutes, up to 30 s of jitter. */
export const FEISHU_CLIENT_CONFIG: ClientConfig = {
  PingInterval: 120,
  ReconnectCount: -1,
  ReconnectInterval: 120,
  ReconnectNonce: 30,
};

export interface FakeLongConnectionOptions {
  appId: string;
  appSecret: string;
  clientConfig: ClientConfig;
  /** Events larger than this are split over several frames (`sum`/`seq`), as Feishu does. */
  maxFramePayloadBytes: number;
  /** When an event answered with an error code, or not within `answerWithinMs`, is pushed again. */
  redelivery: FeishuRedelivery;
}

/** One connected client. */
interface Session {
  socket: Socket;
  serviceId: number;
  deviceId: string;
}

/** An event waiting for its acknowledgement. */
interface Pending {
  payload: Uint8Array;
  /** The frame `message_id` it went out with; undefined while not in flight. */
  frameId: string | undefined;
  /** The connection it is in flight on. */
  session: Session | undefined;
  /** In flight: fails the attempt when no answer came in time; after a failed one: the wait for the retry. */
  timer: NodeJS.Timeout | undefined;
  /** Waiting for its retry: not pushed before the timer fires. */
  waiting: boolean;
  /** Failed attempts so far. */
  failures: number;
  settle: (acknowledged: boolean) => void;
}

/** An acknowledgement the client sent for an event frame. */
export interface FrameAck {
  frameId: string;
  code: number;
}

/**
 * Feishu's long connection, server side: `POST /callback/ws/endpoint` hands out a one-time
 * WebSocket URL with the client config; the socket speaks `pbbp2.Frame`: pings answered with
 * pongs (carrying the config again), events pushed as data frames (split when large). The SDK
 * answers each event frame after its handler: code 200, or 500 when the handler threw. An event
 * answered otherwise than 200, or not within `answerWithinMs`, is pushed again after each of
 * `retryDelaysMs` (Feishu: 15 s, 5 min, 1 h, 6 h), then given up; one in flight on a socket that
 * closed is pushed again on the next connection.
 */
export class FakeLongConnection {
  readonly sessions: Session[] = [];
  /** Every frame clients sent (pings, acknowledgements), oldest first. */
  readonly received: LarkFrame[] = [];
  readonly acks: FrameAck[] = [];
  /** How many endpoint requests were answered with a URL. */
  handshakes = 0;
  #pending: Pending[] = [];
  #tickets = new Set<string>();
  #fault: PlatformFault | undefined;
  #logId = 1;

  constructor(
    server: FakeServer,
    private readonly options: FakeLongConnectionOptions,
  ) {
    server.route("POST", "/callback/ws/endpoint", (ctx) => {
      const body = ctx.json<{ AppID?: unknown; AppSecret?: unknown }>();
      if (body.AppID !== options.appId || body.AppSecret !== options.appSecret) {
        return json(200, { code: 514, msg: "auth failed", data: {} });
      }
      const ticket = randomBytes(16).toString("hex");
      this.#tickets.add(ticket);
      this.handshakes += 1;
      const query = new URLSearchParams({
        fpid: "493",
        aid: "552564",
        device_id: String(7_000_000_000_000_000_000n + BigInt(this.handshakes)),
        access_key: randomBytes(16).toString("hex"),
        service_id: "33554678",
        ticket,
      });
      const URL = `${server.url.replace(/^http/u, "ws")}/ws/v2?${query}`;
      return json(200, { code: 0, msg: "ok", data: { URL, ClientConfig: options.clientConfig } });
    });
    server.websocket("/ws/v2", (socket, ctx) => this.#accept(socket, ctx.query));
  }

  /** Pushes an event (its JSON) to the newest connection; resolves true once the client answered code 200, false when Feishu gave up. */
  push(event: unknown): Promise<boolean> {
    const payload = Buffer.from(typeof event === "string" ? event : JSON.stringify(event));
    return new Promise((settle) => {
      this.#pending.push({
        payload,
        frameId: undefined,
        session: undefined,
        timer: undefined,
        waiting: false,
        failures: 0,
        settle,
      });
      this.#flush();
    });
  }

  /** Events not yet acknowledged. */
  get pending(): number {
    return this.#pending.length;
  }

  /** The connection misbehaves like `kind` until `heal()`: dropped, silent, or sending garbage. */
  fault(kind: PlatformFault): void {
    this.#fault = kind;
    for (const session of [...this.sessions]) this.#misbehave(session);
  }

  heal(): void {
    this.#fault = undefined;
    this.#flush();
  }

  /** The network drops every connection (no fault: reconnecting works at once). */
  drop(): void {
    for (const session of [...this.sessions]) session.socket.terminate();
  }

  /** Feishu stops pushing: retries to come are dropped, events waiting count as not acknowledged. */
  close(): void {
    for (const pending of this.#pending.splice(0)) {
      clearTimeout(pending.timer);
      pending.settle(false);
    }
  }

  #accept(socket: Socket, query: URLSearchParams): void {
    const ticket = query.get("ticket") ?? "";
    // A URL is good for one connection: a client must ask the endpoint again to reconnect.
    if (!this.#tickets.delete(ticket)) {
      socket.close(1008, "invalid ticket");
      return;
    }
    const session: Session = {
      socket,
      serviceId: Number(query.get("service_id")),
      deviceId: query.get("device_id") ?? "",
    };
    this.sessions.push(session);
    socket.on("message", (raw: Buffer) => this.#onFrame(session, raw));
    socket.on("close", () => {
      this.sessions.splice(this.sessions.indexOf(session), 1);
      // What went out on this socket without an acknowledgement is delivered again.
      for (const pending of this.#pending) {
        if (pending.session === session) this.#retract(pending);
      }
      this.#flush();
    });
    if (this.#fault) this.#misbehave(session);
    else this.#flush();
  }

  #onFrame(session: Session, raw: Buffer): void {
    let frame: LarkFrame;
    try {
      frame = decodeFrame(raw);
    } catch {
      return; // not a frame: Feishu ignores it
    }
    this.received.push(frame);
    if (this.#fault === "hang") return;
    if (frame.method === FrameMethod.control && frame.headers.type === "ping") {
      if (this.#fault === "garbage") {
        this.#garbage(session);
        return;
      }
      const pong = Buffer.from(JSON.stringify(this.options.clientConfig));
      this.#send(session, { ...frame, headers: { type: "pong" }, payload: pong });
      return;
    }
    if (frame.method === FrameMethod.data && frame.headers.type === "event") this.#onAck(frame);
  }

  #onAck(frame: LarkFrame): void {
    const frameId = frame.headers.message_id ?? "";
    let code = Number.NaN;
    try {
      code = Number((JSON.parse(Buffer.from(frame.payload ?? []).toString("utf8")) as { code?: unknown }).code);
    } catch {
      // An acknowledgement Feishu cannot read counts as a failed one.
    }
    this.acks.push({ frameId, code });
    const pending = this.#pending.find((p) => p.frameId === frameId);
    if (!pending) return;
    if (code === 200) {
      clearTimeout(pending.timer);
      this.#pending.splice(this.#pending.indexOf(pending), 1);
      pending.settle(true);
      return;
    }
    // The client could not handle it: a failed attempt.
    this.#failed(pending);
  }

  /** An attempt failed (an error code, or no answer in time): pushed again after the next wait, or given up. */
  #failed(pending: Pending): void {
    this.#retract(pending);
    const wait = this.options.redelivery.retryDelaysMs[pending.failures];
    pending.failures += 1;
    if (wait === undefined) {
      this.#pending.splice(this.#pending.indexOf(pending), 1);
      pending.settle(false);
      return;
    }
    pending.waiting = true;
    pending.timer = setTimeout(() => {
      pending.waiting = false;
      pending.timer = undefined;
      this.#flush();
    }, wait).unref();
  }

  #flush(): void {
    const session = this.sessions.at(-1);
    if (!session || this.#fault || session.socket.readyState !== OPEN) return;
    for (const pending of this.#pending) {
      if (pending.frameId !== undefined || pending.waiting) continue;
      pending.frameId = randomBytes(16).toString("hex");
      pending.session = session;
      // No answer in time (a client that missed the frame, hangs, or is slow): a failed attempt.
      pending.timer = setTimeout(() => this.#failed(pending), this.options.redelivery.answerWithinMs).unref();
      this.#sendEvent(session, pending.frameId, pending.payload);
    }
  }

  /** Takes an event back from the connection it went out on. */
  #retract(pending: Pending): void {
    clearTimeout(pending.timer);
    Object.assign(pending, { frameId: undefined, session: undefined, timer: undefined });
  }

  /** One event as data frames, `sum` of them, each with its `seq`, sharing one `message_id`. */
  #sendEvent(session: Session, frameId: string, payload: Uint8Array): void {
    const size = this.options.maxFramePayloadBytes;
    const parts = Math.max(1, Math.ceil(payload.length / size));
    const traceId = randomBytes(8).toString("hex");
    for (let seq = 0; seq < parts; seq++) {
      this.#send(session, {
        seqId: 0,
        logId: this.#logId++,
        service: session.serviceId,
        method: FrameMethod.data,
        headers: { type: "event", message_id: frameId, sum: String(parts), seq: String(seq), trace_id: traceId },
        payload: payload.subarray(seq * size, (seq + 1) * size),
      });
    }
  }

  #misbehave(session: Session): void {
    if (this.#fault === "refuse" || this.#fault === "close") session.socket.terminate();
    else if (this.#fault === "garbage") this.#garbage(session);
  }

  #garbage(session: Session): void {
    if (session.socket.readyState === OPEN) session.socket.send(Buffer.from("<html>502 Bad Gateway</html>"));
  }

  #send(session: Session, frame: LarkFrame): void {
    if (session.socket.readyState === OPEN) session.socket.send(encodeFrame(frame));
  }
}
