import { randomBytes } from "node:crypto";
import type { FakeServer, PlatformFault } from "@chorus/testkit";
import type { WebSocket } from "ws";
import { cookiesOf } from "./session-routes.js";
import type { FakeZaloState } from "./state.js";
import { bigJson, type EventEncoding, eventBody, frame, readFrame } from "./wire.js";

/** One listener connection: its socket and the AES key Zalo sent it (none yet while a fault holds it). */
interface Connection {
  socket: WebSocket;
  key: Buffer | undefined;
  sek: string;
}

/** An event waiting for a listener: its command, the JSON inside `data`, and its own encoding if it has one. */
interface PendingEvent {
  cmd: number;
  json: string;
  encoding?: EventEncoding | undefined;
  sent: () => void;
}

/**
 * The listener WebSocket (`zpw_ws`): each connection gets its cipher key (cmd 1/1), then events
 * as frames whose `data` is deflated and sealed with AES-GCM under that key (cmd 501 people's
 * messages, 521 group messages, 612 reactions); the client pings (cmd 2/1). Events wait while
 * no listener is connected or a fault holds them.
 */
export class FakeListener {
  readonly connections: Connection[] = [];
  /** Every ping a client sent. */
  readonly pings: unknown[] = [];
  /** The command of every frame a client sent (zca-js sends pings, cmd 2, and nothing for an event it got). */
  readonly received: number[] = [];
  /** Every frame sent, newest last, to send again (`redeliverLast`). */
  readonly sent: { cmd: number; json: string }[] = [];
  /** How `data` is encoded in event frames. */
  encoding: EventEncoding = 2;
  #fault: PlatformFault | undefined;
  #pending: PendingEvent[] = [];

  constructor(
    private readonly state: FakeZaloState,
    server: FakeServer,
  ) {
    server.websocket("/ws", (socket, ctx) => {
      const sek = cookiesOf(ctx).get("zpw_sek") ?? "";
      const session = this.state.sessions.get(sek);
      if (!session || session.revoked) {
        socket.close(3003, "session ended");
        return;
      }
      if (this.#fault === "close") return void socket.terminate();
      if (this.#fault === "refuse") return void socket.close(1013, "try again later");
      const connection: Connection = { socket, key: undefined, sek };
      this.connections.push(connection);
      socket.on("close", () => this.connections.splice(this.connections.indexOf(connection), 1));
      socket.on("message", (data: Buffer) => {
        const read = readFrame(data);
        this.received.push(read.cmd);
        if (read.cmd === 2 && read.subCmd === 1) this.pings.push(read.payload);
      });
      if (this.#fault === "garbage") socket.send(Buffer.from("\u0001 not a zalo frame"));
      if (this.#fault === undefined) this.#hello(connection);
    });
  }

  /** Connections that have their key: events go to them. */
  get ready(): Connection[] {
    return this.connections.filter((c) => c.key !== undefined);
  }

  /** Queues an event for the listeners (encoded as `encoding`, else as `this.encoding`); resolves once a listener got it. */
  send(cmd: number, data: unknown, encoding?: EventEncoding): Promise<void> {
    const json = bigJson({ data, error_code: 0 });
    return new Promise((sent) => {
      this.#pending.push({ cmd, json, encoding, sent });
      this.#flush();
    });
  }

  /** The last event again, byte for byte the same JSON (a redelivery). */
  resendLast(): Promise<void> {
    const last = this.sent.at(-1);
    if (!last) throw new Error("fake Zalo: no event sent yet");
    return new Promise((sent) => {
      this.#pending.push({ ...last, sent });
      this.#flush();
    });
  }

  /** Sends a raw frame to every listener at once (cmd 3000: another connection took over). */
  broadcast(cmd: number, payload: unknown): void {
    for (const connection of this.ready) connection.socket.send(frame(cmd, 0, payload));
  }

  /** Closes every listener with `code` (3003: the session ended). */
  closeAll(code: number, reason: string): void {
    for (const { socket } of [...this.connections]) socket.close(code, reason);
  }

  /** From now on listeners misbehave like `kind`, until `heal()`. */
  fault(kind: PlatformFault): void {
    this.#fault = kind;
    if (kind === "close") for (const { socket } of [...this.connections]) socket.terminate();
    if (kind === "garbage")
      for (const { socket } of this.connections) socket.send(frame(501, 0, "<html>502 Bad Gateway</html>"));
  }

  heal(): void {
    this.#fault = undefined;
    for (const connection of this.connections) if (!connection.key) this.#hello(connection);
    this.#flush();
  }

  #hello(connection: Connection): void {
    connection.key = randomBytes(16);
    connection.socket.send(frame(1, 1, { key: connection.key.toString("base64"), encrypt: 0 }));
    this.#flush();
  }

  #flush(): void {
    const ready = this.ready;
    if (this.#fault !== undefined || ready.length === 0) return;
    const pending = this.#pending;
    this.#pending = [];
    for (const event of pending) {
      this.sent.push({ cmd: event.cmd, json: event.json });
      for (const connection of ready) {
        const body = eventBody(event.json, event.encoding ?? this.encoding, connection.key as Buffer);
        connection.socket.send(frame(event.cmd, 0, body));
      }
      event.sent();
    }
  }
}
