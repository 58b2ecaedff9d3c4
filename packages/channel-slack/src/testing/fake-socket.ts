import { randomUUID } from "node:crypto";
import type { FakeServer, PlatformFault, WebSocketHandler } from "@chorus/testkit";

/** One accepted connection (a `ws` socket, as testkit hands it over). */
type WebSocket = Parameters<WebSocketHandler>[0];

/** Longest an envelope waits for its ack, so a delivery nobody takes cannot hold a test. */
const ACK_TIMEOUT_MS = 10_000;

interface Pending {
  frame: Record<string, unknown>;
  settle(acked: boolean): void;
}

/**
 * Slack's Socket Mode side: `apps.connections.open` hands out single-use `ws://…/link/?ticket=`
 * URLs; a connection gets `hello`, then `events_api` envelopes, each waiting for the app's
 * `{ envelope_id }` ack. What is not acknowledged is sent again on the next connection.
 * `fault(kind)` makes connections misbehave: `refuse` and `close` end them, `hang` never says
 * hello, `garbage` sends frames that are not JSON.
 */
export class FakeSlackSocket {
  /** Every frame the app sent (acks), parsed. */
  readonly received: Record<string, unknown>[] = [];
  readonly #tickets = new Set<string>();
  readonly #live = new Set<WebSocket>();
  readonly #pending = new Map<string, Pending>();
  #fault: PlatformFault | undefined;
  #connections = 0;

  constructor(
    private readonly server: FakeServer,
    private readonly appId: string,
  ) {
    server.websocket("/link/", (socket, ctx) => this.#accept(socket, ctx.query.get("ticket") ?? ""));
  }

  /** The URL `apps.connections.open` answers: one connection per ticket. */
  openUrl(): string {
    const ticket = randomUUID();
    this.#tickets.add(ticket);
    return `${this.server.url.replace(/^http/, "ws")}/link/?ticket=${ticket}&app_id=${this.appId}`;
  }

  /** Connections that got `hello` and are open. */
  get connections(): number {
    return this.#live.size;
  }

  /** How many connections were accepted so far (reconnects count). */
  get accepted(): number {
    return this.#connections;
  }

  /** Sends `payload` as an `events_api` envelope; resolves true once acknowledged, false if it never was. */
  deliver(payload: unknown, retry?: { attempt: number; reason: string }): Promise<boolean> {
    const envelopeId = randomUUID();
    const frame = {
      envelope_id: envelopeId,
      payload,
      type: "events_api",
      accepts_response_payload: false,
      retry_attempt: retry?.attempt ?? 0,
      retry_reason: retry?.reason ?? "",
    };
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => settle(false), ACK_TIMEOUT_MS);
      const settle = (acked: boolean) => {
        clearTimeout(timer);
        this.#pending.delete(envelopeId);
        resolve(acked);
      };
      this.#pending.set(envelopeId, { frame, settle });
      const [socket] = this.#live;
      if (socket && this.#fault === undefined) socket.send(JSON.stringify(frame));
    });
  }

  /** Slack asks the app to reconnect (`refresh_requested`, `warning`, `link_disabled`). */
  disconnect(reason = "refresh_requested"): void {
    const frame = JSON.stringify({ type: "disconnect", reason, debug_info: { host: "fake-applink-1" } });
    for (const socket of this.#live) socket.send(frame);
  }

  /** Cuts every connection without a closing handshake (a network drop). */
  drop(): void {
    for (const socket of this.#live) socket.terminate();
    this.#live.clear();
  }

  /** Sends a frame as it is (a garbled one, say) on every connection. */
  sendRaw(frame: string): void {
    for (const socket of this.#live) socket.send(frame);
  }

  fault(kind: PlatformFault): void {
    this.#fault = kind;
    if (kind === "refuse" || kind === "close") this.drop();
    if (kind === "garbage") this.sendRaw("<html><body>502 Bad Gateway</body></html>");
  }

  heal(): void {
    this.#fault = undefined;
  }

  #accept(socket: WebSocket, ticket: string): void {
    this.#connections++;
    if (!this.#tickets.delete(ticket) || this.#fault === "refuse" || this.#fault === "close") {
      socket.terminate();
      return;
    }
    if (this.#fault === "hang") return;
    if (this.#fault === "garbage") {
      socket.send("<html><body>502 Bad Gateway</body></html>");
      return;
    }
    socket.on("message", (data: unknown) => this.#ack(String(data)));
    socket.on("close", () => this.#live.delete(socket));
    this.#live.add(socket);
    socket.send(
      JSON.stringify({
        type: "hello",
        num_connections: this.#live.size,
        debug_info: { host: "fake-applink-1", build_number: 105, approximate_connection_time: 18060 },
        connection_info: { app_id: this.appId },
      }),
    );
    // What the app did not acknowledge before is sent again.
    for (const { frame } of this.#pending.values()) socket.send(JSON.stringify(frame));
  }

  #ack(data: string): void {
    try {
      const frame = JSON.parse(data) as { envelope_id?: unknown };
      this.received.push(frame);
      if (typeof frame.envelope_id === "string") this.#pending.get(frame.envelope_id)?.settle(true);
    } catch {
      this.received.push({ unparseable: data });
    }
  }
}
