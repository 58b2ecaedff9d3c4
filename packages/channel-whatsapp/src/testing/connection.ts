import type { WebSocketHandler } from "@chorus/testkit";
import { type BinaryNode, decodeBinaryNode, encodeBinaryNode, type proto } from "@whiskeysockets/baileys";
import { fakeProtocolError } from "./errors.js";
import { FrameReader, frame } from "./frame-reader.js";
import { type ClientFinish, NoiseServerHandshake, type NoiseTransport } from "./noise-server.js";
import { garbageFrame, type Outage } from "./outage.js";

/** The server end of one WebSocket, as the fake's WebSocket route hands it over. */
export type FakeSocket = Parameters<WebSocketHandler>[0];

/** What a connection reports to the fake. */
export interface ConnectionHandler {
  /** The handshake finished: the client logs in (`payload.username`) or registers (`payload.devicePairingData`). */
  hello(connection: FakeConnection, noiseKey: Uint8Array, payload: proto.ClientPayload): void | Promise<void>;
  /** A decrypted node arrived. */
  node(connection: FakeConnection, node: BinaryNode): void | Promise<void>;
  closed(connection: FakeConnection): void;
  /** Handling failed; the connection is closed after this. */
  failed(connection: FakeConnection, error: unknown): void;
  /** How the server misbehaves now (hang and garbage are played here, per frame). */
  outage(): Outage | undefined;
}

/** How long a client may take to close after the fake told it to go, before the fake cuts the socket. */
const CLOSE_GRACE_MS = 5000;
const WS_OPEN = 1;

/**
 * One client connection: the Noise handshake, then encrypted binary nodes in both directions.
 * Nodes are handled one at a time, in the order they arrived.
 */
export class FakeConnection {
  readonly #reader = new FrameReader();
  readonly #handshake = new NoiseServerHandshake();
  #sentHello = false;
  #transport: NoiseTransport | undefined;
  #queue: Promise<void> = Promise.resolve();
  #closed = false;
  /** The fake sent this connection garbage: what it sends afterwards may well be unreadable. */
  misled = false;
  /** The device number after a successful login; 0 before (and for a registering client). */
  device = 0;
  loggedIn = false;

  constructor(
    private readonly socket: FakeSocket,
    private readonly handler: ConnectionHandler,
  ) {
    socket.on("message", (data: Buffer | ArrayBuffer | Buffer[]) => this.#receive(toBuffer(data)));
    socket.on("close", () => {
      this.#closed = true;
      handler.closed(this);
    });
  }

  get open(): boolean {
    return !this.#closed && this.socket.readyState === WS_OPEN;
  }

  /** Encrypts and sends a node; a no-op once the socket closed. */
  send(node: BinaryNode): void {
    if (!this.#transport) throw fakeProtocolError(`cannot send <${node.tag}> before the handshake finished`);
    if (!this.open) return;
    this.socket.send(frame(this.#transport.encrypt(encodeBinaryNode(node))));
  }

  /** Asks the client to close (it does, after a stream error); cuts the socket if it does not. */
  closeSoon(): void {
    const timer = setTimeout(() => this.socket.terminate(), CLOSE_GRACE_MS);
    timer.unref();
    this.socket.once("close", () => clearTimeout(timer));
  }

  /** Drops the socket without a closing handshake, like a lost network. */
  terminate(): void {
    this.socket.terminate();
  }

  /** Sends a frame that is neither a handshake message nor an encrypted node. */
  sendGarbage(): void {
    this.misled = true;
    if (this.open) this.socket.send(garbageFrame());
  }

  #receive(chunk: Buffer): void {
    try {
      for (const payload of this.#reader.push(chunk)) this.#frame(payload);
    } catch (error) {
      this.#fail(error);
    }
  }

  #frame(payload: Buffer): void {
    const outage = this.handler.outage();
    if (outage === "garbage") {
      this.sendGarbage();
      return;
    }
    if (outage === "hang") {
      // A hung server reads on (the transport's counters stay in step) but answers nothing.
      this.#transport?.decrypt(payload);
      return;
    }
    if (!this.#sentHello) {
      this.#sentHello = true;
      this.socket.send(frame(this.#handshake.serverHello(payload)));
      return;
    }
    if (!this.#transport) {
      const finish: ClientFinish = this.#handshake.clientFinish(payload);
      this.#transport = finish.transport;
      this.#enqueue(() => this.handler.hello(this, finish.noiseKey, finish.payload));
      return;
    }
    // Decrypt now, in arrival order: the transport counter must advance frame by frame.
    const plaintext = this.#transport.decrypt(payload);
    this.#enqueue(async () => this.handler.node(this, await decodeBinaryNode(plaintext)));
  }

  #enqueue(task: () => void | Promise<void>): void {
    this.#queue = this.#queue.then(task).catch((error: unknown) => this.#fail(error));
  }

  #fail(error: unknown): void {
    this.handler.failed(this, error);
    this.socket.terminate();
  }
}

function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}
